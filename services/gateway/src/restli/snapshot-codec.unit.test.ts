import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { entityRegistry, SchemaValidationError, ValidationError } from '@catalog/model';
import { requestValidator } from '../api-contract/catalog-validator.js';
import { ENTITIES_ACTION_EXAMPLES, RESTLI_OPERATIONS } from './restli-operations.js';
import { entityOfSnapshot, proposalsOfEntity, snapshotOf } from './snapshot-codec.js';

const SNAP = 'com.linkedin.metadata.snapshot.';
const URN = 'urn:li:dataset:(urn:li:dataPlatform:mysql,db.orders,PROD)';
const entity = (kind: string, urn: string, aspects: unknown[]) => ({
  value: { [`${SNAP}${kind}Snapshot`]: { urn, aspects } },
});
const problemOf = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a problem');
};

describe('legacy snapshots', () => {
  it('knows the snapshot of every entity type the registry gives one', () => {
    for (const spec of entityRegistry.entities()) {
      if (spec.snapshotName) expect(entityOfSnapshot(spec.snapshotName)?.name).toBe(spec.name);
    }
    for (const kind of ['Dataset', 'Chart', 'Dashboard', 'CorpUser', 'CorpGroup', 'Tag'])
      expect(entityOfSnapshot(`${SNAP}${kind}Snapshot`)).toBeDefined();
  });

  it('turns each aspect into a checked UPSERT, with the system metadata and Pegasus unions', () => {
    const proposals = proposalsOfEntity(
      entity('Dataset', URN, [
        { 'com.linkedin.dataset.DatasetProperties': { description: 'd', extra: 1 } },
        {
          'com.linkedin.schema.SchemaMetadata': {
            schemaName: 'orders',
            platform: 'urn:li:dataPlatform:mysql',
            version: 0,
            hash: '',
            platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
            fields: [],
          },
        },
      ]),
      { runId: 'r1' },
    );
    expect(proposals.map((p) => [p.changeType, p.aspect.name, p.urn.raw])).toEqual([
      ['UPSERT', 'datasetProperties', URN],
      ['UPSERT', 'schemaMetadata', URN],
    ]);
    expect(proposals[0]!.value).not.toHaveProperty('extra');
    expect(proposals[0]!.systemMetadata).toMatchObject({ runId: 'r1' });
  });

  it('names an unknown snapshot, an unknown aspect and a time-series aspect (400)', () => {
    const unknownSnapshot = problemOf(() => proposalsOfEntity(entity('Nope', URN, []), undefined));
    expect(unknownSnapshot).toBeInstanceOf(ValidationError);
    expect(unknownSnapshot.message).toContain(`${SNAP}NopeSnapshot`);
    const unknownAspect = problemOf(() =>
      proposalsOfEntity(entity('Dataset', URN, [{ 'com.linkedin.chart.ChartInfo': {} }]), undefined),
    );
    expect(unknownAspect.message).toContain('Unknown aspect com.linkedin.chart.ChartInfo');
    const timeseries = problemOf(() =>
      proposalsOfEntity(
        entity('Dataset', URN, [{ 'com.linkedin.dataset.DatasetProfile': { timestampMillis: 1 } }]),
        undefined,
      ),
    );
    expect(timeseries.message).toContain('time-series');
    const twoMembers = problemOf(() => proposalsOfEntity({ value: { a: {}, b: {} } }, undefined));
    expect(twoMembers.message).toContain('exactly one member');
  });

  it('refuses a value failing its schema as a schema violation (422), naming the aspect', () => {
    const error = problemOf(() =>
      proposalsOfEntity(
        entity('Dataset', URN, [{ 'com.linkedin.common.GlobalTags': { tags: 'x' } }]),
        undefined,
      ),
    );
    expect(error).toBeInstanceOf(SchemaValidationError);
    expect(error.message).toContain('com.linkedin.common.GlobalTags');
  });

  it('writes stored aspects as the snapshot union, keyed by record name', () => {
    const dataset = entityRegistry.requireEntity('dataset');
    const stored = {
      urn: URN,
      aspect: 'status',
      version: 0,
      value: { removed: false },
      systemMetadata: null,
      created: { time: 0, actor: 'urn:li:corpuser:x' },
    };
    expect(snapshotOf(dataset, URN, [stored])).toEqual({
      [`${SNAP}DatasetSnapshot`]: {
        urn: URN,
        aspects: [{ 'com.linkedin.common.Status': { removed: false } }],
      },
    });
  });

  it('describes every action of POST /entities with an example the request validator accepts', () => {
    for (const [action, body] of Object.entries(ENTITIES_ACTION_EXAMPLES)) {
      const req = { query: { action }, body } as unknown as Request;
      expect(requestValidator.input(RESTLI_OPERATIONS.entitiesAction, req).query['action']).toBe(action);
    }
    for (const action of ['ingest', 'batchIngest', 'exists', 'getBrowsePaths', 'list'])
      expect(ENTITIES_ACTION_EXAMPLES).toHaveProperty(action);
    // The ingest examples are real snapshots.
    expect(
      proposalsOfEntity(ENTITIES_ACTION_EXAMPLES['ingest']!['entity'], undefined).map((p) => p.aspect.name),
    ).toEqual(['datasetProperties', 'globalTags', 'status']);
  });
});
