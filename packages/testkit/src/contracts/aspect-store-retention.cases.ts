import type { AspectStore, AspectWrite } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import { datasetUrn, stamp, uniqueNamespace, upsert } from './aspect-store-fixtures.js';

const DAY_MS = 86_400_000;

/**
 * Retention of an aspect's history (AspectWrite.retention, the ecosystem's dataHubRetentionConfig):
 * applied by the write that makes a new version, version 0 never removed, the numbering never going
 * back, and a redelivered write still answered as first.
 */
export function aspectStoreRetentionCases(store: () => AspectStore): void {
  const apply = async (...writes: AspectWrite[]) => store().applyBatch(writes);
  const versionsOf = async (urn: string, aspect: string) =>
    (await store().listVersions(urn, aspect)).map((v) => [v.version, v.value['n']]);

  describe('history retention', () => {
    it('keeps no history under maxVersions 1, version 0 the latest value', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'one');
      const retention = { version: { maxVersions: 1 } };
      for (const n of [1, 2, 3]) await apply(upsert(urn, 'status', { n }, { retention }));
      expect(await versionsOf(urn, 'status')).toEqual([[0, 3]]);
      expect(await store().get(urn, 'status', 1)).toBeNull();
      expect(await store().get(urn, 'status', 2)).toBeNull();
      expect((await store().get(urn, 'status', 0))?.value).toEqual({ n: 3 });
    });

    it('keeps the newest maxVersions history rows besides version 0', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'three');
      const retention = { version: { maxVersions: 3 } };
      for (const n of [1, 2, 3, 4, 5, 6]) await apply(upsert(urn, 'status', { n }, { retention }));
      expect(await versionsOf(urn, 'status')).toEqual([
        [0, 6],
        [5, 5],
        [4, 4],
        [3, 3],
      ]);
    });

    it('keeps every version without a retention, and trims an old history at the next write with one', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'later');
      for (const n of [1, 2, 3, 4]) await apply(upsert(urn, 'status', { n }));
      expect(await versionsOf(urn, 'status')).toHaveLength(4);
      await apply(upsert(urn, 'status', { n: 5 }, { retention: { version: { maxVersions: 2 } } }));
      expect(await versionsOf(urn, 'status')).toEqual([
        [0, 5],
        [4, 4],
        [3, 3],
      ]);
    });

    it('removes the history rows written longer ago than maxAgeInSeconds', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'aged');
      const now = Date.now();
      const at = (time: number) => ({ created: stamp(time) });
      await apply(upsert(urn, 'status', { n: 1 }, at(now - 10 * DAY_MS)));
      await apply(upsert(urn, 'status', { n: 2 }, at(now - 9 * DAY_MS)));
      await apply(upsert(urn, 'status', { n: 3 }, at(now - 60_000)));
      await apply(
        upsert(urn, 'status', { n: 4 }, { ...at(now), retention: { time: { maxAgeInSeconds: 86_400 } } }),
      );
      expect(await versionsOf(urn, 'status')).toEqual([
        [0, 4],
        [3, 3],
      ]);
    });

    it('with both bounds, removes only the rows that both rule out', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'both');
      const now = Date.now();
      const at = (time: number) => ({ created: stamp(time) });
      await apply(upsert(urn, 'status', { n: 1 }, at(now - 10 * DAY_MS)));
      await apply(upsert(urn, 'status', { n: 2 }, at(now - 60_000)));
      await apply(upsert(urn, 'status', { n: 3 }, at(now - 30_000)));
      const retention = { version: { maxVersions: 2 }, time: { maxAgeInSeconds: 86_400 } };
      await apply(upsert(urn, 'status', { n: 4 }, { ...at(now), retention }));
      // Row 1 is old and beyond the two newest: it goes. Rows 2 and 3 are the two newest.
      expect(await versionsOf(urn, 'status')).toEqual([
        [0, 4],
        [3, 3],
        [2, 2],
      ]);
    });

    it('numbers history on after its newest rows were removed', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'numbering');
      const retention = { version: { maxVersions: 1 } };
      for (const n of [1, 2, 3]) await apply(upsert(urn, 'status', { n }, { retention }));
      await apply(upsert(urn, 'status', { n: 4 }));
      expect(await versionsOf(urn, 'status')).toEqual([
        [0, 4],
        [3, 3],
      ]);
      expect((await store().get(urn, 'status'))?.systemMetadata?.version).toBe('4');
    });

    it('answers a redelivered write as first, though the row it moved to history is gone', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'replay');
      const retention = { version: { maxVersions: 1 } };
      await apply(upsert(urn, 'status', { n: 1 }, { retention }));
      const write = upsert(urn, 'status', { n: 2 }, { retention, requestId: `req-${uniqueNamespace()}` });
      const [first] = await apply(write);
      expect(first).toMatchObject({ status: 'UPDATED', previous: { value: { n: 1 } } });
      const [again] = await apply(write);
      expect(again).toMatchObject({
        status: 'UPDATED',
        replayed: true,
        previous: { value: { n: 1 } },
        current: { value: { n: 2 } },
      });
      expect(await versionsOf(urn, 'status')).toEqual([[0, 2]]);
    });

    it('leaves history alone on a write that stores the same value again', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'same');
      for (const n of [1, 2]) await apply(upsert(urn, 'status', { n }));
      const [same] = await apply(
        upsert(urn, 'status', { n: 2 }, { retention: { version: { maxVersions: 1 } } }),
      );
      expect(same?.status).toBe('UNCHANGED');
      expect(await versionsOf(urn, 'status')).toEqual([
        [0, 2],
        [1, 1],
      ]);
    });
  });
}
