import { DEFAULT_RUN_ID, type AspectStore, type AspectWrite } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import {
  aspectWrite,
  datasetKeyOf,
  datasetUrn,
  stamp,
  uniqueNamespace,
  upsert,
} from './aspect-store-fixtures.js';

/**
 * Ingestion runs as the latest rows record them: findRunRows reads the version-0 rows whose runId is a
 * run (what a rollback of that run undoes), listRuns the runs with their row counts and newest
 * lastObserved. Other suites share the store, so run ids are unique per case.
 */
export function aspectStoreRunCases(store: () => AspectStore): void {
  const apply = async (...writes: AspectWrite[]) => store().applyBatch(writes);
  const run = (ns: string, name: string) => `run-${ns}-${name}`;
  const keyOf = (rows: readonly { urn: string; aspect: string }[]) => rows.map((r) => `${r.aspect}@${r.urn}`);

  describe('ingestion runs', () => {
    it('finds the latest rows of a run by urn then aspect, paged, key aspects included', async () => {
      const ns = uniqueNamespace();
      const first = run(ns, 'a');
      const [u1, u2] = [datasetUrn(ns, 'one'), datasetUrn(ns, 'two')];
      const sm = { runId: first, lastObserved: 10 };
      await apply(
        upsert(u2, 'datasetProperties', { v: 1 }, { systemMetadata: sm, keyAspect: datasetKeyOf(u2) }),
        upsert(u1, 'status', { removed: false }, { systemMetadata: sm, keyAspect: datasetKeyOf(u1) }),
        upsert(u1, 'datasetProperties', { v: 1 }, { systemMetadata: sm }),
      );
      const rows = await store().findRunRows({ runId: first, limit: 10 });
      expect(keyOf(rows)).toEqual([
        `datasetKey@${u1}`,
        `datasetProperties@${u1}`,
        `status@${u1}`,
        `datasetKey@${u2}`,
        `datasetProperties@${u2}`,
      ]);
      expect(rows.every((r) => r.version === 0 && r.systemMetadata?.runId === first)).toBe(true);
      const page = await store().findRunRows({ runId: first, start: 3, limit: 10 });
      expect(keyOf(page)).toEqual(keyOf(rows.slice(3)));
      expect(await store().findRunRows({ runId: first, start: 1, limit: 1 })).toHaveLength(1);
      expect(await store().findRunRows({ runId: run(ns, 'none'), limit: 10 })).toEqual([]);
    });

    it('moves a row to the run that wrote it last, an identical value too (with lastRunId)', async () => {
      const ns = uniqueNamespace();
      const [a, b, c] = [run(ns, 'a'), run(ns, 'b'), run(ns, 'c')];
      const urn = datasetUrn(ns, 'moved');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }, { systemMetadata: { runId: a } }));
      await apply(upsert(urn, 'datasetProperties', { v: 2 }, { systemMetadata: { runId: b } }));
      expect(keyOf(await store().findRunRows({ runId: a, limit: 10 }))).toEqual([]);
      expect(keyOf(await store().findRunRows({ runId: b, limit: 10 }))).toEqual([`datasetProperties@${urn}`]);

      const [same] = await apply(
        upsert(urn, 'datasetProperties', { v: 2 }, { systemMetadata: { runId: c } }),
      );
      expect(same?.status).toBe('UNCHANGED');
      expect(same?.current?.systemMetadata).toMatchObject({ runId: c, lastRunId: b });
      expect(await store().findRunRows({ runId: b, limit: 10 })).toEqual([]);
      const [row] = await store().findRunRows({ runId: c, limit: 10 });
      expect(row?.value).toEqual({ v: 2 });
      // History keeps each version's own run.
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(versions.map((v) => v.systemMetadata?.runId)).toEqual([c, a]);
    });

    it('counts rows written without a run id under the default run', async () => {
      const ns = uniqueNamespace();
      const urn = datasetUrn(ns, 'default');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }));
      const rows = await store().findRunRows({ runId: DEFAULT_RUN_ID, limit: 100_000 });
      expect(rows.some((r) => r.urn === urn && r.aspect === 'datasetProperties')).toBe(true);
      const runs = await store().listRuns({ limit: 100_000 });
      expect(runs.find((r) => r.runId === DEFAULT_RUN_ID)?.rows).toBeGreaterThanOrEqual(1);
    });

    it('lists runs with their rows and newest lastObserved, newest first; deleted rows are gone', async () => {
      const ns = uniqueNamespace();
      const [older, newer] = [run(ns, 'older'), run(ns, 'newer')];
      const [u1, u2] = [datasetUrn(ns, 'one'), datasetUrn(ns, 'two')];
      // Far in the future, so these two are the newest runs of a shared store.
      const base = 4_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
      await apply(
        upsert(
          u1,
          'datasetProperties',
          { v: 1 },
          { systemMetadata: { runId: older, lastObserved: base + 1 } },
        ),
        upsert(
          u1,
          'status',
          { removed: false },
          { systemMetadata: { runId: older, lastObserved: base + 5 } },
        ),
        upsert(
          u2,
          'datasetProperties',
          { v: 1 },
          { systemMetadata: { runId: newer, lastObserved: base + 9 } },
        ),
        upsert(
          u2,
          'status',
          { removed: false },
          {
            systemMetadata: { runId: older, lastObserved: base + 3 },
            created: stamp(base),
          },
        ),
      );
      const runs = await store().listRuns({ limit: 100_000 });
      const ours = runs.filter((r) => r.runId === older || r.runId === newer);
      expect(ours).toEqual([
        { runId: newer, rows: 1, lastObserved: base + 9 },
        { runId: older, rows: 3, lastObserved: base + 5 },
      ]);
      const at = runs.findIndex((r) => r.runId === newer);
      const paged = await store().listRuns({ start: at, limit: 1 });
      expect(paged).toEqual([{ runId: newer, rows: 1, lastObserved: base + 9 }]);

      await apply(aspectWrite('DELETE', u1, 'status', undefined));
      const after = (await store().listRuns({ limit: 100_000 })).find((r) => r.runId === older);
      expect(after).toEqual({ runId: older, rows: 2, lastObserved: base + 3 });
      await apply(aspectWrite('DELETE', u1, 'datasetProperties', undefined));
      await apply(aspectWrite('DELETE', u2, 'status', undefined));
      expect((await store().listRuns({ limit: 100_000 })).some((r) => r.runId === older)).toBe(false);
    });
  });
}
