import { describe, expect, it } from 'vitest';
import { SchemaValidationError, ValidationError } from '../errors.js';
import { entityRegistry } from '../registry/entity-registry.js';
import { applyAspectPatch, parseAspectPatch } from './apply-patch.js';

const spec = (aspect: string) => entityRegistry.getAspect('dataset', aspect)!;
const patch = (aspect: string, current: Record<string, unknown> | undefined, document: unknown) =>
  applyAspectPatch(spec(aspect), current, parseAspectPatch(document), 1_000);

describe('applyAspectPatch', () => {
  it('adds and removes tags by key, starting from the template default when absent', () => {
    const added = patch('globalTags', undefined, [
      { op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a' } },
      { op: 'add', path: '/tags/urn:li:tag:b', value: { tag: 'urn:li:tag:b' } },
      { op: 'add', path: '/tags/urn:li:tag:a', value: { tag: 'urn:li:tag:a', context: 'again' } },
    ]);
    expect(added).toEqual({ tags: [{ tag: 'urn:li:tag:a', context: 'again' }, { tag: 'urn:li:tag:b' }] });
    const removed = patch('globalTags', added, [
      { op: 'remove', path: '/tags/urn:li:tag:a', value: {} },
      { op: 'remove', path: '/tags/urn:li:tag:absent', value: {} },
    ]);
    expect(removed).toEqual({ tags: [{ tag: 'urn:li:tag:b' }] });
  });

  it('honours the SDK builder form: arrayPrimaryKeys with nested keys and empty segments', () => {
    const result = patch(
      'globalTags',
      { tags: [{ tag: 'urn:li:tag:old' }] },
      {
        arrayPrimaryKeys: { tags: ['attribution\u241fsource', 'tag'] },
        patch: [{ op: 'add', path: '/tags//urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }],
      },
    );
    expect(result['tags']).toEqual([{ tag: 'urn:li:tag:old' }, { tag: 'urn:li:tag:pii' }]);
  });

  it('keys owners by owner then type, and removes every type of an owner by a prefix path', () => {
    const owners = patch('ownership', undefined, [
      {
        op: 'add',
        path: '/owners/urn:li:corpuser:a/TECHNICAL_OWNER',
        value: { owner: 'urn:li:corpuser:a', type: 'TECHNICAL_OWNER' },
      },
      {
        op: 'add',
        path: '/owners/urn:li:corpuser:a/BUSINESS_OWNER',
        value: { owner: 'urn:li:corpuser:a', type: 'BUSINESS_OWNER' },
      },
      {
        op: 'add',
        path: '/owners/urn:li:corpuser:b/DATA_STEWARD',
        value: { owner: 'urn:li:corpuser:b', type: 'DATA_STEWARD' },
      },
    ]);
    expect((owners['owners'] as unknown[]).length).toBe(3);
    expect(owners['lastModified']).toEqual({ time: 1_000, actor: 'urn:li:corpuser:__datahub_system' });
    const left = patch('ownership', owners, [{ op: 'remove', path: '/owners/urn:li:corpuser:a', value: {} }]);
    expect(left['owners']).toEqual([{ owner: 'urn:li:corpuser:b', type: 'DATA_STEWARD' }]);
  });

  it('patches tags of one schema field inside editableSchemaMetadata, escaping / in the field path', () => {
    const result = patch('editableSchemaMetadata', undefined, [
      {
        op: 'add',
        path: '/editableSchemaFieldInfo/a~1b/globalTags/tags/urn:li:tag:pii',
        value: { tag: 'urn:li:tag:pii' },
      },
      { op: 'add', path: '/editableSchemaFieldInfo/a~1b/fieldPath', value: 'a/b' },
    ]);
    expect(result['editableSchemaFieldInfo']).toEqual([
      { fieldPath: 'a/b', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } },
    ]);
  });

  it('sets plain fields and map entries of aspects without keyed arrays', () => {
    const result = patch(
      'datasetProperties',
      { description: 'old', customProperties: { a: '1' }, tags: [] },
      [
        { op: 'add', path: '/description', value: 'new' },
        { op: 'add', path: '/customProperties/b', value: '2' },
        { op: 'remove', path: '/customProperties/a', value: {} },
      ],
    );
    expect(result).toMatchObject({ description: 'new', customProperties: { b: '2' } });
  });

  it('refuses an operation that cannot apply and a result that does not fit the schema', () => {
    expect(() =>
      patch('globalTags', { tags: [] }, [
        { op: 'test', path: '/tags/urn:li:tag:x', value: { tag: 'urn:li:tag:x' } },
      ]),
    ).toThrow(ValidationError);
    expect(() =>
      patch('globalTags', undefined, [
        { op: 'add', path: '/tags/urn:li:tag:x', value: { tag: 'not a urn' } },
      ]),
    ).toThrow(SchemaValidationError);
  });

  it('refuses documents that are not JSON Patch', () => {
    expect(() => parseAspectPatch({ nope: true })).toThrow(/Invalid JSON Patch/);
    expect(() => parseAspectPatch([{ op: 'explode', path: '/x' }])).toThrow(/Unsupported PATCH operation/);
    expect(() => parseAspectPatch([{ op: 'add', path: 'x' }])).toThrow(/Invalid JSON Patch/);
  });
});

describe('the propertyDefinition template, as the SDK StructuredPropertyPatchBuilder patches it', () => {
  const definitionSpec = entityRegistry.getAspect('structuredProperty', 'propertyDefinition')!;
  const patchDefinition = (current: Record<string, unknown> | undefined, document: unknown) =>
    applyAspectPatch(definitionSpec, current, parseAspectPatch(document), 1_000);
  const DATASET = 'urn:li:entityType:datahub.dataset';
  const CHART = 'urn:li:entityType:datahub.chart';
  const stored = {
    qualifiedName: 'io.tier',
    valueType: 'urn:li:dataType:datahub.number',
    cardinality: 'SINGLE',
    entityTypes: [DATASET],
    allowedValues: [{ value: { double: 30 }, description: 'a month' }],
  };

  it('adds and removes entity types keyed by the urn itself, never twice', () => {
    const added = patchDefinition(stored, [
      { op: 'add', path: `/entityTypes/${CHART}`, value: CHART },
      { op: 'add', path: `/entityTypes/${DATASET}`, value: DATASET },
    ]);
    expect(added['entityTypes']).toEqual([DATASET, CHART]);
    const removed = patchDefinition(added, [{ op: 'remove', path: `/entityTypes/${DATASET}` }]);
    expect(removed['entityTypes']).toEqual([CHART]);
  });

  it('adds allowed values keyed by their value; a number matches however the path spells it', () => {
    const result = patchDefinition(stored, [
      // The SDK writes a float value as `30.0`: it names the stored 30.
      { op: 'add', path: '/allowedValues/30.0', value: { value: { double: 30.0 }, description: 'thirty' } },
      { op: 'add', path: '/allowedValues/90', value: { value: { double: 90 } } },
    ]);
    expect(result['allowedValues']).toEqual([
      { value: { double: 30 }, description: 'thirty' },
      { value: { double: 90 } },
    ]);
    const strings = patchDefinition(
      {
        ...stored,
        valueType: 'urn:li:dataType:datahub.string',
        allowedValues: [{ value: { string: '30' } }],
      },
      [
        { op: 'add', path: '/allowedValues/30.0', value: { value: { string: '30.0' } } },
        { op: 'add', path: '/allowedValues/a~1b', value: { value: { string: 'a/b' } } },
      ],
    );
    expect(strings['allowedValues']).toEqual([
      { value: { string: '30' } },
      { value: { string: '30.0' } },
      { value: { string: 'a/b' } },
    ]);
  });

  it('applies every field the builder sets, typeQualifier as a whole', () => {
    const result = patchDefinition(stored, [
      { op: 'add', path: '/typeQualifier', value: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] } },
      { op: 'add', path: '/displayName', value: 'Tier' },
      { op: 'add', path: '/description', value: 'How long' },
      { op: 'add', path: '/cardinality', value: 'MULTIPLE' },
      { op: 'add', path: '/immutable', value: true },
      { op: 'add', path: '/version', value: '20240101000000' },
    ]);
    expect(result).toMatchObject({
      ...stored,
      typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
      displayName: 'Tier',
      description: 'How long',
      cardinality: 'MULTIPLE',
      immutable: true,
      version: '20240101000000',
    });
  });

  it('creates a definition from the ecosystem default when none is stored', () => {
    const created = patchDefinition(undefined, [
      { op: 'add', path: '/qualifiedName', value: 'io.new' },
      { op: 'add', path: `/entityTypes/${DATASET}`, value: DATASET },
      { op: 'add', path: '/allowedValues/gold', value: { value: { string: 'gold' } } },
    ]);
    expect(created).toMatchObject({
      qualifiedName: 'io.new',
      valueType: 'urn:li:dataType:datahub.string',
      entityTypes: [DATASET],
      allowedValues: [{ value: { string: 'gold' } }],
    });
  });
});
