import { randomUUID } from 'node:crypto';
import { isSkipped, mongoForTests } from '@catalog/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RUN_ID } from '../write-rules.js';
import { aspectId, type AspectDocument } from './aspect-document.js';
import { openMongoAspectStore } from './mongo-aspect-store.js';

const service = await mongoForTests();
if (isSkipped(service)) console.warn(`skipping the MongoDB run-fields backfill: ${service.skip}`);

/** A document as a release before the run fields wrote it: no runId, no lastObserved. */
function oldDocument(
  urn: string,
  aspect: string,
  version: number,
  systemMetadata: Record<string, unknown> | null,
  extra: Partial<AspectDocument> = {},
): AspectDocument {
  return {
    _id: aspectId(urn, aspect, version),
    urn,
    aspect,
    version,
    metadata: JSON.stringify({ description: `v${version}` }),
    systemMetadata: systemMetadata === null ? null : JSON.stringify(systemMetadata),
    createdOn: 1_600_000_000_000 + version,
    createdBy: 'urn:li:corpuser:old',
    ...extra,
  };
}

describe.skipIf(isSkipped(service))('MongoDB run-fields backfill', () => {
  if (isSkipped(service)) return;
  const { uri } = service;
  const databaseName = `catalog_test_backfill_${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    const client = await MongoClient.connect(uri);
    await client.db(databaseName).dropDatabase();
    await client.close();
  });

  it('gives old documents the run fields the write path sets, so findRunRows and listRuns see them', async () => {
    const store = await openMongoAspectStore({ uri, databaseName });
    const client = await MongoClient.connect(uri);
    try {
      const aspects = client.db(databaseName).collection<AspectDocument>('aspects');
      const withRun = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.with_run,PROD)';
      const noRun = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.no_run,PROD)';
      const noMeta = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.no_meta,PROD)';
      await aspects.insertMany([
        oldDocument(
          withRun,
          'datasetProperties',
          0,
          { runId: 'old-run', lastObserved: 1_650_000_000_000 },
          {
            seq: 1,
            requestId: 'old-1',
          },
        ),
        oldDocument(withRun, 'datasetProperties', 1, { runId: 'older-run', lastObserved: 1_640_000_000_000 }),
        oldDocument(
          noRun,
          'datasetProperties',
          0,
          { lastObserved: 1_660_000_000_000 },
          { seq: 0, requestId: 'old-2' },
        ),
        oldDocument(noMeta, 'status', 0, null, { seq: 0, requestId: 'old-3' }),
      ]);
      // A row of this release already has its fields: the backfill leaves it alone.
      const current = 'urn:li:dataset:(urn:li:dataPlatform:hive,new.row,PROD)';
      await store.applyBatch([
        {
          requestId: 'new-1',
          mode: 'UPSERT',
          urn: current,
          aspect: 'status',
          value: { removed: false },
          created: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:new' },
          systemMetadata: { runId: 'new-run', lastObserved: 1_700_000_000_000 },
        },
      ]);
      expect(await store.findRunRows({ runId: 'old-run', limit: 10 })).toEqual([]);

      // A batch smaller than the documents: the rounds page on by _id.
      expect(await store.backfillRunFields({ batchSize: 2 })).toBe(4);

      const oldRun = await store.findRunRows({ runId: 'old-run', limit: 10 });
      expect(oldRun.map((r) => [r.urn, r.aspect, r.value])).toEqual([
        [withRun, 'datasetProperties', { description: 'v0' }],
      ]);
      const defaults = await store.findRunRows({ runId: DEFAULT_RUN_ID, limit: 10 });
      expect(defaults.map((r) => r.urn)).toEqual([noMeta, noRun]);
      const byId = new Map((await aspects.find({}).toArray()).map((d) => [d._id, d]));
      expect(byId.get(aspectId(withRun, 'datasetProperties', 0))).toMatchObject({
        runId: 'old-run',
        lastObserved: 1_650_000_000_000,
      });
      expect(byId.get(aspectId(withRun, 'datasetProperties', 1))).toMatchObject({
        runId: 'older-run',
        lastObserved: 1_640_000_000_000,
      });
      expect(byId.get(aspectId(noRun, 'datasetProperties', 0))).toMatchObject({
        runId: DEFAULT_RUN_ID,
        lastObserved: 1_660_000_000_000,
      });
      // Without lastObserved: the write time, as the write path keys it.
      expect(byId.get(aspectId(noMeta, 'status', 0))).toMatchObject({
        runId: DEFAULT_RUN_ID,
        lastObserved: 1_600_000_000_000,
      });
      expect(byId.get(aspectId(current, 'status', 0))).toMatchObject({ runId: 'new-run' });
      const runs = await store.listRuns({ limit: 10 });
      expect(runs).toContainEqual({ runId: 'old-run', rows: 1, lastObserved: 1_650_000_000_000 });
      expect(runs).toContainEqual({ runId: DEFAULT_RUN_ID, rows: 2, lastObserved: 1_660_000_000_000 });

      // Idempotent: nothing left to do.
      expect(await store.backfillRunFields()).toBe(0);
    } finally {
      await client.close();
      await store.close();
    }
  });
});
