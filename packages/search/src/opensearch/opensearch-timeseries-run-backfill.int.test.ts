import { randomBytes } from 'node:crypto';
import { isSkipped, opensearchForTests } from '@catalog/testkit';
import { Client } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import { openOpenSearch } from './open-opensearch.js';

const found = await opensearchForTests();
const skip = isSkipped(found) ? found.skip : undefined;
if (skip) console.warn(`[opensearch-timeseries-run-backfill.int] skipped: ${skip}`);

describe.skipIf(skip !== undefined)('OpenSearch time-series run id backfill', () => {
  it('indexes the run id of documents indexed before it was kept, and only of those with one', async () => {
    if (isSkipped(found)) throw new Error(found.skip);
    const prefix = `it_rb_${randomBytes(5).toString('hex')}`;
    const adapters = await openOpenSearch({ node: found.node, indexPrefix: prefix, replicas: 0 });
    const raw = new Client({ node: found.node });
    try {
      const { timeseries } = adapters;
      expect(await timeseries.backfillRunIds?.()).toBe(0);
      await timeseries.ensure('dataset', 'datasetProfile');
      const alias = `${prefix}_dataset_datasetprofileaspect_v1`;
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.profiled,PROD)';
      // Documents as a release before the run id wrote them: the system metadata, no `runId`.
      const old = (id: string, timestampMillis: number, systemMetadata?: Record<string, unknown>) => ({
        id,
        urn,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        timestampMillis,
        value: { timestampMillis, rowCount: 1 },
        ...(systemMetadata === undefined ? {} : { systemMetadata }),
      });
      for (const doc of [
        old('a', 1_000, { runId: 'old-run', lastObserved: 1 }),
        old('b', 2_000, { runId: 'old-run' }),
        old('c', 3_000, { lastObserved: 3 }),
        old('d', 4_000),
        old('e', 5_000, { runId: '' }),
      ]) {
        await raw.index({ index: alias, id: doc.id, body: doc });
      }
      // One of this release, indexed with its run id.
      await timeseries.upsert([
        {
          ...old('f', 6_000, { runId: 'new-run' }),
          value: { timestampMillis: 6_000, rowCount: 2 },
        },
      ]);
      expect(await timeseries.countRun('old-run')).toBe(0);

      expect(await timeseries.backfillRunIds?.()).toBe(2);
      expect(await timeseries.countRun('old-run')).toBe(2);
      expect(await timeseries.runGroups('old-run')).toEqual([
        { entityType: 'dataset', aspect: 'datasetProfile', urn, count: 2 },
      ]);
      expect(await timeseries.countRun('new-run')).toBe(1);
      // A run-scoped delete (rollback) now reaches them.
      expect(
        await timeseries.count({ entityType: 'dataset', aspect: 'datasetProfile', urn, runId: 'old-run' }),
      ).toBe(2);
      // The values read back unchanged.
      const points = await timeseries.query({
        entityType: 'dataset',
        aspect: 'datasetProfile',
        urn,
        limit: 10,
      });
      expect(points.map((p) => p.id)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
      expect(points.find((p) => p.id === 'a')?.systemMetadata).toEqual({ runId: 'old-run', lastObserved: 1 });

      // Idempotent: documents without a run id stay without, and nothing is updated again.
      expect(await timeseries.backfillRunIds?.()).toBe(0);
      expect(await timeseries.countRun('old-run')).toBe(2);
    } finally {
      await raw.indices.delete({ index: `${prefix}_*` }, { ignore: [404] });
      await raw.close();
      await adapters.close();
    }
  });
});
