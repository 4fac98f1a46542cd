import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { entityRegistry } from '../registry/entity-registry.js';
import { applyAspectPatch, parseAspectPatch } from './apply-patch.js';

const NOW = 1_000;
const SYSTEM = { time: NOW, actor: 'urn:li:corpuser:__datahub_system' };
const patchOf = (entity: string, aspect: string) => (current: unknown, document: unknown) =>
  applyAspectPatch(
    entityRegistry.getAspect(entity, aspect)!,
    current as Record<string, unknown> | undefined,
    parseAspectPatch(document),
    NOW,
  );

const field = (fieldPath: string) =>
  `/editableSchemaFieldInfo/${fieldPath.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const TAG = 'urn:li:tag:pii';
const TERM = 'urn:li:glossaryTerm:email';
const DOWN = 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,down,PROD),id)';
const UP = 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,up,PROD),id)';
const UP2 = 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,up2,PROD),id)';

describe('schema field patches (editableSchemaMetadata)', () => {
  const patch = patchOf('dataset', 'editableSchemaMetadata');

  it('a tag added to a field that has no entry yet creates the entry with its fieldPath from the path', () => {
    const result = patch(undefined, [
      { op: 'add', path: `${field('new.field')}/globalTags/tags/${TAG}`, value: { tag: TAG } },
    ]);
    expect(result['editableSchemaFieldInfo']).toEqual([
      { fieldPath: 'new.field', globalTags: { tags: [{ tag: TAG }] } },
    ]);
    expect(result['created']).toEqual(SYSTEM);
  });

  it('a term added to a new field gets its fieldPath, its urn from the path and the required audit stamp', () => {
    const result = patch(undefined, [
      { op: 'add', path: `${field('a/b')}/glossaryTerms/terms/${TERM}`, value: {} },
    ]);
    expect(result['editableSchemaFieldInfo']).toEqual([
      { fieldPath: 'a/b', glossaryTerms: { terms: [{ urn: TERM }], auditStamp: SYSTEM } },
    ]);
  });

  it('tags and terms of several new fields merge with a curated field, which is left as it was', () => {
    const kept = { fieldPath: 'kept', description: 'curated' };
    const result = patch({ editableSchemaFieldInfo: [kept], created: SYSTEM, lastModified: SYSTEM }, [
      { op: 'add', path: `${field('x')}/globalTags/tags/${TAG}`, value: { tag: TAG } },
      { op: 'add', path: `${field('x')}/glossaryTerms/terms/${TERM}`, value: { urn: TERM } },
      { op: 'add', path: `${field('y')}/globalTags/tags/${TAG}`, value: { tag: TAG } },
    ]);
    const infos = result['editableSchemaFieldInfo'] as Record<string, unknown>[];
    expect(infos.map((i) => i['fieldPath'])).toEqual(['kept', 'x', 'y']);
    expect(infos[0]).toEqual(kept);
    expect(infos[1]).toEqual({
      fieldPath: 'x',
      globalTags: { tags: [{ tag: TAG }] },
      glossaryTerms: { terms: [{ urn: TERM }], auditStamp: SYSTEM },
    });
  });

  it('adding the same field tag twice keeps one; removing it leaves an empty list and the description', () => {
    const start = {
      editableSchemaFieldInfo: [{ fieldPath: 'f', description: 'd' }],
      created: SYSTEM,
      lastModified: SYSTEM,
    };
    const add = [
      { op: 'add', path: `${field('f')}/globalTags/tags/${TAG}`, value: { tag: TAG, context: 'test' } },
    ];
    const twice = patch(patch(start, add), add);
    expect(twice['editableSchemaFieldInfo']).toEqual([
      { fieldPath: 'f', description: 'd', globalTags: { tags: [{ tag: TAG, context: 'test' }] } },
    ]);
    const removed = patch(twice, [{ op: 'remove', path: `${field('f')}/globalTags/tags/${TAG}`, value: {} }]);
    expect(removed['editableSchemaFieldInfo']).toEqual([
      { fieldPath: 'f', description: 'd', globalTags: { tags: [] } },
    ]);
  });
});

describe('fine-grained lineage patches', () => {
  const path = (op: string, query = 'NONE', up = UP) => `/fineGrainedLineages/${op}/${DOWN}/${query}/${up}`;

  it('an upstream added by its keys becomes one lineage with the template defaults; removing it leaves none', () => {
    const patch = patchOf('dataset', 'upstreamLineage');
    const added = patch(undefined, [{ op: 'add', path: path('OPERATION'), value: { confidenceScore: 1.0 } }]);
    expect(added).toEqual({
      upstreams: [],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [UP],
          downstreamType: 'FIELD',
          downstreams: [DOWN],
          transformOperation: 'OPERATION',
          confidenceScore: 1.0,
        },
      ],
    });
    const removed = patch(added, [{ op: 'remove', path: path('OPERATION'), value: {} }]);
    expect(removed['fineGrainedLineages']).toEqual([]);
  });

  it('upstreams of one downstream and query join one lineage with the lowest confidence; a query is kept', () => {
    const patch = patchOf('dataJob', 'dataJobInputOutput');
    const result = patch(undefined, [
      { op: 'add', path: path('CREATE', 'urn:li:query:q'), value: { confidenceScore: 0.9 } },
      {
        op: 'add',
        path: path('CREATE', 'urn:li:query:q', UP2),
        value: { confidenceScore: 0.4, upstreamType: 'DATASET' },
      },
      { op: 'add', path: path('CREATE', ''), value: { confidenceScore: 1.0 } },
    ]);
    expect(result['fineGrainedLineages']).toEqual([
      {
        upstreamType: 'DATASET',
        upstreams: [UP, UP2],
        downstreamType: 'FIELD',
        downstreams: [DOWN],
        query: 'urn:li:query:q',
        transformOperation: 'CREATE',
        confidenceScore: 0.4,
      },
      {
        upstreamType: 'FIELD_SET',
        upstreams: [UP],
        downstreamType: 'FIELD',
        downstreams: [DOWN],
        transformOperation: 'CREATE',
        confidenceScore: 1.0,
      },
    ]);
    expect(result['inputDatasetEdges']).toEqual([]);
  });

  it('setting the whole field stores the given lineages; stored ones with several downstreams stay as they are', () => {
    const patch = patchOf('dataset', 'upstreamLineage');
    const wide = {
      upstreamType: 'FIELD_SET',
      upstreams: [UP],
      downstreamType: 'FIELD_SET',
      downstreams: [DOWN, UP2],
    };
    const result = patch({ upstreams: [], fineGrainedLineages: [wide] }, [
      { op: 'add', path: path('NONE'), value: { confidenceScore: 0.5 } },
    ]);
    expect(result['fineGrainedLineages']).toEqual([
      expect.objectContaining({
        downstreams: [DOWN],
        upstreams: [UP],
        confidenceScore: 0.5,
        transformOperation: 'NONE',
      }),
      wide,
    ]);
    const set = patch(result, [{ op: 'add', path: '/fineGrainedLineages', value: [] }]);
    expect(set['fineGrainedLineages']).toEqual([]);
  });
});

describe('other templates of the ecosystem', () => {
  it('documentation is keyed by attribution source; removing every entry leaves an empty list', () => {
    const patch = patchOf('dataset', 'documentation');
    const doc = (text: string, source?: string) => ({
      documentation: text,
      ...(source ? { attribution: { time: 1, actor: 'urn:li:corpuser:u', source } } : {}),
    });
    const added = patch(undefined, [
      {
        op: 'add',
        path: '/documentations/urn:li:dataHubAction:a',
        value: doc('A', 'urn:li:dataHubAction:a'),
      },
      {
        op: 'add',
        path: '/documentations/urn:li:dataHubAction:b',
        value: doc('B', 'urn:li:dataHubAction:b'),
      },
      { op: 'add', path: '/documentations/', value: doc('plain') },
    ]);
    expect((added['documentations'] as unknown[]).length).toBe(3);
    const one = patch(added, [{ op: 'remove', path: '/documentations/urn:li:dataHubAction:a', value: {} }]);
    expect((one['documentations'] as { documentation: string }[]).map((d) => d.documentation)).toEqual([
      'B',
      'plain',
    ]);
    const none = patch(added, [{ op: 'remove', path: '/documentations', value: {} }]);
    expect(none).toEqual({ documentations: [] });
  });

  it('an owner added by a path without a type in its value gets the type from the path', () => {
    const patch = patchOf('dataset', 'ownership');
    const result = patch(undefined, [
      { op: 'add', path: '/owners/urn:li:corpuser:a/DATA_STEWARD', value: { owner: 'urn:li:corpuser:a' } },
    ]);
    expect(result['owners']).toEqual([{ owner: 'urn:li:corpuser:a', type: 'DATA_STEWARD' }]);
  });

  it('form prompts are keyed by id and actors by urn', () => {
    const patch = patchOf('form', 'formInfo');
    const result = patch(undefined, [
      { op: 'add', path: '/name', value: 'f' },
      {
        op: 'add',
        path: '/prompts/p1',
        value: { title: 'one', type: 'STRUCTURED_PROPERTY', required: true },
      },
      { op: 'add', path: '/actors/users/urn:li:corpuser:a', value: 'urn:li:corpuser:a' },
    ]);
    expect(result['prompts']).toEqual([expect.objectContaining({ id: 'p1', title: 'one' })]);
    expect(result['actors']).toEqual(expect.objectContaining({ users: ['urn:li:corpuser:a'], groups: [] }));
  });

  it('siblings and dashboards start from their defaults; status patches one field', () => {
    const siblings = patchOf('dataset', 'siblings')(undefined, [
      {
        op: 'add',
        path: '/siblings/urn:li:dataset:(urn:li:dataPlatform:dbt,x,PROD)',
        value: 'urn:li:dataset:(urn:li:dataPlatform:dbt,x,PROD)',
      },
    ]);
    expect(siblings).toEqual({
      siblings: ['urn:li:dataset:(urn:li:dataPlatform:dbt,x,PROD)'],
      primary: false,
    });
    const status = patchOf('dataset', 'status')(undefined, [{ op: 'add', path: '/removed', value: true }]);
    expect(status).toEqual({ removed: true });
    const dashboard = patchOf('dashboard', 'dashboardInfo')(undefined, [
      {
        op: 'add',
        path: '/chartEdges/urn:li:chart:(looker,c)',
        value: { destinationUrn: 'urn:li:chart:(looker,c)' },
      },
    ]);
    expect(dashboard).toEqual(
      expect.objectContaining({ title: '', description: '', charts: [], datasets: [], datasetEdges: [] }),
    );
    expect(dashboard['chartEdges']).toEqual([{ destinationUrn: 'urn:li:chart:(looker,c)' }]);
  });

  it('a version properties patch needs a stored value: the template has no default', () => {
    const patch = patchOf('dataset', 'versionProperties');
    expect(() => patch(undefined, [{ op: 'add', path: '/isLatest', value: true }])).toThrow(ValidationError);
    expect(() => patch(undefined, [{ op: 'add', path: '/isLatest', value: true }])).toThrow(
      /Default aspect is required/,
    );
  });
});
