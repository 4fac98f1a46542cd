import { describe, expect, it } from 'vitest';
import { entityRegistry, type AspectSpec, type EntitySpec } from '@catalog/model';
import { referenceSearchFields, referencesIn, samePath, withoutReferences } from './reference-removal.js';

const TAG = 'urn:li:tag:pii';
const OTHER_TAG = 'urn:li:tag:gold';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const OTHER_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';

const aspectOf = (entity: string, aspect: string): AspectSpec => {
  const spec = entityRegistry.getAspect(entity, aspect);
  if (spec === undefined) throw new Error(`no ${entity}.${aspect}`);
  return spec;
};

/** A hand-made aspect spec: only names, kind, searchable fields and relationships matter here. */
const fakeAspect = (
  name: string,
  searchable: AspectSpec['searchable'],
  relationships: AspectSpec['relationships'],
  kind: AspectSpec['kind'] = 'versioned',
): AspectSpec => ({
  name,
  recordName: `test.${name}`,
  kind,
  schemaVersion: 1,
  isKey: false,
  restricted: false,
  searchable,
  relationships,
  schema: undefined as unknown as AspectSpec['schema'],
});
const fakeEntity = (name: string, aspects: readonly AspectSpec[], searchable = true): EntitySpec => ({
  name,
  keyAspect: `${name}Key`,
  aspects: new Map(aspects.map((a) => [a.name, a])),
  searchable,
});

describe('samePath', () => {
  it('matches equal paths, a leading or doubled slash aside', () => {
    expect(samePath('tags/*/tag', 'tags/*/tag')).toBe(true);
    expect(samePath('/tags/*/tag', 'tags//*/tag')).toBe(true);
    expect(samePath('container', 'container')).toBe(true);
  });

  it('matches paths that differ by a trailing `*` only', () => {
    expect(samePath('domains/*', 'domains')).toBe(true);
    expect(samePath('domains', 'domains/*')).toBe(true);
  });

  it('refuses other paths', () => {
    expect(samePath('owners/*/owner', 'owners/*/typeUrn')).toBe(false);
    expect(samePath('tags/*/tag', 'tags/*')).toBe(false);
    expect(samePath('tags/*/tag', 'fields/*/globalTags/tags/*/tag')).toBe(false);
    expect(samePath('upstreams/*/dataset', 'upstreams')).toBe(false);
    expect(samePath('*', '')).toBe(false);
  });
});

describe('referencesIn', () => {
  it('names the relationship annotations whose path holds the urn', () => {
    const globalTags = aspectOf('dataset', 'globalTags');
    const value = { tags: [{ tag: OTHER_TAG }, { tag: TAG }] };
    expect(referencesIn(globalTags, value, TAG)).toEqual([
      { aspect: 'globalTags', relationship: 'TaggedWith', path: 'tags/*/tag' },
    ]);
    expect(referencesIn(globalTags, value, 'urn:li:tag:absent')).toEqual([]);
    expect(referencesIn(globalTags, {}, TAG)).toEqual([]);
  });

  it('finds urns in arrays of urns and in single fields', () => {
    const domains = aspectOf('dataset', 'domains');
    expect(referencesIn(domains, { domains: ['urn:li:domain:sales'] }, 'urn:li:domain:sales')).toHaveLength(
      1,
    );
    const container = aspectOf('dataset', 'container');
    expect(
      referencesIn(container, { container: 'urn:li:container:db' }, 'urn:li:container:db').map(
        (h) => h.relationship,
      ),
    ).toEqual(['IsPartOf']);
  });
});

describe('withoutReferences', () => {
  it('removes the array element holding the reference and keeps the others', () => {
    const value = {
      tags: [{ tag: TAG, context: 'a' }, { tag: OTHER_TAG }, { tag: TAG }],
    };
    const before = structuredClone(value);
    expect(withoutReferences(value, ['tags/*/tag'], TAG)).toEqual({ tags: [{ tag: OTHER_TAG }] });
    expect(value).toEqual(before);
  });

  it('leaves an empty array when the only element goes', () => {
    expect(withoutReferences({ tags: [{ tag: TAG }] }, ['/tags/*/tag'], TAG)).toEqual({ tags: [] });
  });

  it('removes a urn from an array of urns', () => {
    expect(
      withoutReferences(
        { domains: ['urn:li:domain:a', 'urn:li:domain:b'] },
        ['domains/*'],
        'urn:li:domain:a',
      ),
    ).toEqual({ domains: ['urn:li:domain:b'] });
    // A path ending at the array itself.
    expect(
      withoutReferences({ domains: ['urn:li:domain:a', 'urn:li:domain:b'] }, ['domains'], 'urn:li:domain:b'),
    ).toEqual({ domains: ['urn:li:domain:a'] });
  });

  it('drops a single-valued field outside any array', () => {
    expect(
      withoutReferences({ container: 'urn:li:container:db', x: 1 }, ['container'], 'urn:li:container:db'),
    ).toEqual({ x: 1 });
    expect(
      withoutReferences({ parent: { destinationUrn: DATASET }, y: 2 }, ['parent/destinationUrn'], DATASET),
    ).toEqual({ parent: {}, y: 2 });
  });

  it('removes from the innermost array on the path', () => {
    const value = {
      fineGrainedLineages: [
        { upstreams: [DATASET, OTHER_DATASET], upstreamType: 'FIELD_SET' },
        { upstreams: [OTHER_DATASET], upstreamType: 'FIELD_SET' },
      ],
    };
    expect(withoutReferences(value, ['fineGrainedLineages/*/upstreams/*'], DATASET)).toEqual({
      fineGrainedLineages: [
        { upstreams: [OTHER_DATASET], upstreamType: 'FIELD_SET' },
        { upstreams: [OTHER_DATASET], upstreamType: 'FIELD_SET' },
      ],
    });
    // Nested tag associations: the association goes, the schema field stays.
    const fields = {
      editableSchemaFieldInfo: [
        { fieldPath: 'a', globalTags: { tags: [{ tag: TAG }, { tag: OTHER_TAG }] } },
        { fieldPath: 'b', globalTags: { tags: [{ tag: TAG }] } },
      ],
    };
    expect(withoutReferences(fields, ['editableSchemaFieldInfo/*/globalTags/tags/*/tag'], TAG)).toEqual({
      editableSchemaFieldInfo: [
        { fieldPath: 'a', globalTags: { tags: [{ tag: OTHER_TAG }] } },
        { fieldPath: 'b', globalTags: { tags: [] } },
      ],
    });
  });

  it('removes map entries by value and by key', () => {
    expect(withoutReferences({ m: { a: TAG, b: OTHER_TAG } }, ['m/*'], TAG)).toEqual({ m: { b: OTHER_TAG } });
    expect(withoutReferences({ m: { [TAG]: 1, [OTHER_TAG]: 2 } }, ['m/$key'], TAG)).toEqual({
      m: { [OTHER_TAG]: 2 },
    });
  });

  it('returns a value without the reference unchanged', () => {
    const value = { tags: [{ tag: OTHER_TAG }] };
    expect(withoutReferences(value, ['tags/*/tag', 'missing/*'], TAG)).toEqual(value);
  });
});

describe('referenceSearchFields', () => {
  const registry = entityRegistry.entities();
  const has = (fields: ReturnType<typeof referenceSearchFields>, entityType: string, field: string) =>
    fields.some((f) => f.entityType === entityType && f.field === field);

  it('derives the relationship-backed searchable fields from the registry', () => {
    const tag = referenceSearchFields('tag', registry);
    expect(has(tag, 'dataset', 'tags')).toBe(true);
    expect(has(tag, 'dataset', 'editedFieldTags')).toBe(true);
    expect(has(tag, 'dataset', 'fieldTags')).toBe(true);
    expect(has(tag, 'chart', 'tags')).toBe(true);
    expect(has(tag, 'dataset', 'glossaryTerms')).toBe(false);
    expect(has(tag, 'dataset', 'owners')).toBe(false);

    expect(has(referenceSearchFields('glossaryTerm', registry), 'dataset', 'glossaryTerms')).toBe(true);
    expect(has(referenceSearchFields('corpuser', registry), 'dataset', 'owners')).toBe(true);
    expect(has(referenceSearchFields('corpGroup', registry), 'dashboard', 'owners')).toBe(true);
    expect(has(referenceSearchFields('domain', registry), 'dataset', 'domains')).toBe(true);
    expect(has(referenceSearchFields('container', registry), 'dataset', 'container')).toBe(true);
  });

  it('lists each (entity type, field) once, ordered', () => {
    const fields = referenceSearchFields('tag', registry);
    const keys = fields.map((f) => `${f.entityType} ${f.field}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(fields.every((f) => registry.find((e) => e.name === f.entityType)?.searchable)).toBe(true);
    const sorted = [...fields].sort((a, b) =>
      a.entityType === b.entityType ? (a.field < b.field ? -1 : 1) : a.entityType < b.entityType ? -1 : 1,
    );
    expect(fields).toEqual(sorted);
  });

  it('keeps only string fields on a relationship path to the target type, of searchable entities', () => {
    const rel = (path: string, entityTypes: string[]) => ({ name: 'Rel', path, entityTypes });
    const field = (fieldName: string, path: string, type: AspectSpec['searchable'][number]['type']) => ({
      fieldName,
      path,
      type,
    });
    const registry = [
      fakeEntity('thing', [
        fakeAspect(
          'refs',
          [
            field('tagged', 'tags/*/tag', 'URN'),
            field('taggedText', '/tags/*/tag', 'KEYWORD'),
            field('tagCount', 'tags/*/tag', 'COUNT'),
            field('other', 'tags/*/context', 'TEXT'),
            field('owners', 'owners', 'URN'),
          ],
          [rel('tags/*/tag', ['tag']), rel('owners/*', ['corpuser'])],
        ),
        // A relationship in another aspect does not back this aspect's fields.
        fakeAspect('elsewhere', [field('elsewhere', 'x', 'URN')], [rel('y', ['tag'])]),
        fakeAspect(
          'series',
          [field('seriesTags', 'tags/*/tag', 'URN')],
          [rel('tags/*/tag', ['tag'])],
          'timeseries',
        ),
      ]),
      fakeEntity(
        'hidden',
        [fakeAspect('refs', [field('tagged', 'tags/*/tag', 'URN')], [rel('tags/*/tag', ['tag'])])],
        false,
      ),
    ];
    expect(referenceSearchFields('tag', registry)).toEqual([
      { entityType: 'thing', field: 'tagged' },
      { entityType: 'thing', field: 'taggedText' },
    ]);
    expect(referenceSearchFields('corpuser', registry)).toEqual([{ entityType: 'thing', field: 'owners' }]);
    expect(referenceSearchFields('dataset', registry)).toEqual([]);
  });
});
