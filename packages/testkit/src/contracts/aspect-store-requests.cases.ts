import type { AspectStore } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import { datasetUrn, uniqueNamespace, upsert } from './aspect-store-fixtures.js';

/** What the request-retention cases ask of an adapter's factory; the adapter must honour each. */
export interface AspectStoreTestOptions {
  /** Milliseconds since the epoch, read for every recorded request id and every prune. */
  readonly clock?: () => number;
  readonly requestRetentionMs?: number;
  readonly maxRequestRows?: number;
}

export interface OpenedAspectStore {
  readonly store: AspectStore;
  cleanup(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;
/** Each case's clock starts a year after the previous one's, so their request ids never overlap in time. */
let epoch = Date.now() + 10 * 365 * 24 * HOUR;

/**
 * Request ids are remembered for the dedup window and up to a row bound, not forever. Each case opens
 * its own store with a clock it moves; the clock starts years ahead, so in a database shared with the
 * other cases every earlier request id is already outside the window and pruned with the first prune.
 */
export function aspectStoreRequestCases(
  open: (options: AspectStoreTestOptions) => Promise<OpenedAspectStore>,
): void {
  describe('request id retention', () => {
    const opened = async (options: Omit<AspectStoreTestOptions, 'clock'>) => {
      epoch += 365 * 24 * HOUR;
      const clock = { now: epoch };
      const handle = await open({ ...options, clock: () => clock.now });
      return { ...handle, clock };
    };

    it('replays a request id inside the dedup window and applies it anew once the window has passed', async () => {
      const { store, clock, cleanup } = await opened({ requestRetentionMs: HOUR });
      try {
        const urn = datasetUrn(uniqueNamespace(), 'window');
        const write = upsert(urn, 'datasetProperties', { v: 1 });
        // A later request changes the aspect after it, so only the recorded id can recognise it.
        await store.applyBatch([write, upsert(urn, 'datasetProperties', { v: 'later' })]);
        clock.now += HOUR / 2;
        await store.pruneRequests();
        const [inside] = await store.applyBatch([{ ...write, value: { v: 2 } }]);
        expect(inside).toMatchObject({ status: 'CREATED', replayed: true });

        clock.now += HOUR;
        expect(await store.pruneRequests()).toBeGreaterThanOrEqual(1);
        const [after] = await store.applyBatch([{ ...write, value: { v: 2 } }]);
        expect(after).toMatchObject({ status: 'UPDATED', replayed: false });
        expect((await store.get(urn, 'datasetProperties'))?.value).toEqual({ v: 2 });
      } finally {
        await cleanup();
      }
    });

    it('keeps at most maxRequestRows request ids, forgetting the oldest first', async () => {
      const { store, clock, cleanup } = await opened({ requestRetentionMs: HOUR, maxRequestRows: 3 });
      try {
        const urn = datasetUrn(uniqueNamespace(), 'bounded');
        const writes = Array.from({ length: 5 }, (_, n) => upsert(urn, 'datasetProperties', { n }));
        for (const write of writes) {
          clock.now += 1;
          await store.applyBatch([write]);
        }
        expect(await store.pruneRequests()).toBeGreaterThanOrEqual(2);
        const replays = await store.applyBatch(writes.slice(2).map((w) => ({ ...w, value: { n: 'again' } })));
        expect(replays.map((r) => r.replayed)).toEqual([true, true, true]);
        const [oldest] = await store.applyBatch([{ ...writes[0]!, value: { n: 'again' } }]);
        expect(oldest).toMatchObject({ status: 'UPDATED', replayed: false });
      } finally {
        await cleanup();
      }
    });
  });
}
