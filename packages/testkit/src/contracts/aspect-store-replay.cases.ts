import { ValidationError } from '@catalog/model';
import type { ApplyResult, AspectStore, AspectWrite, StoredAspect } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import {
  aspectWrite,
  datasetKeyOf,
  datasetUrn,
  stamp,
  uniqueNamespace,
  upsert,
} from './aspect-store-fixtures.js';

const runOf = (runId: string, lastObserved: number) => ({ runId, lastObserved });

/** A patch that refuses every value, so its write is INVALID and names the value it saw. */
function refusingPatch(urn: string, aspect: string): AspectWrite {
  return {
    ...aspectWrite('UPSERT', urn, aspect, undefined),
    patch: () => {
      throw new ValidationError('refused');
    },
  };
}

/**
 * Writes the `writes` again, each with another value (a re-execution would store it), and expects
 * every answer to be its first answer, replayed, and the stored versions to be untouched.
 */
async function expectReplays(
  store: AspectStore,
  urns: readonly string[],
  writes: readonly AspectWrite[],
  firsts: readonly (ApplyResult | undefined)[],
): Promise<void> {
  const storedBefore = await everyVersion(store, urns);
  const again = await store.applyBatch(
    writes.map((w) => (w.value === undefined ? w : { ...w, value: { replayedWith: 'another value' } })),
  );
  expect(again).toEqual(firsts.map((first) => ({ ...first, replayed: true })));
  expect(await everyVersion(store, urns)).toEqual(storedBefore);
}

async function everyVersion(store: AspectStore, urns: readonly string[]): Promise<StoredAspect[]> {
  const out: StoredAspect[] = [];
  for (const urn of urns) {
    for (const latest of await store.getLatest(urn))
      out.push(...(await store.listVersions(urn, latest.aspect)));
  }
  return out;
}

/**
 * A redelivered request answers what its first delivery answered, whole (previous, current, the key
 * aspect and defaults it created, what it removed, with their system metadata and audit stamps),
 * whatever was written since: its values moved into history, its version 0's system metadata
 * rewritten by an identical value seen again, its aspect or entity deleted and written anew. The
 * persistence consumer makes the change logs of a redelivered proposal from that answer.
 */
export function aspectStoreReplayCases(store: () => AspectStore): void {
  describe('replays after later writes', () => {
    it('answers as first answered after the values moved into history and the system metadata was rewritten', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'moved');
      const keyAspect = datasetKeyOf(urn);
      const entityDefaults = [
        { name: 'browsePathsV2', value: { path: [{ id: 'hive' }] } },
        { name: 'dataPlatformInstance', value: { platform: 'urn:li:dataPlatform:hive' } },
      ];
      const first = { keyAspect, entityDefaults };
      const writes = [
        upsert(
          urn,
          'datasetProperties',
          { v: 1 },
          { ...first, systemMetadata: runOf('r1', 1), created: stamp(1) },
        ),
        // Identical values seen again: version 0's system metadata is rewritten, twice.
        upsert(
          urn,
          'datasetProperties',
          { v: 1 },
          { keyAspect, systemMetadata: runOf('r2', 2), created: stamp(2) },
        ),
        upsert(
          urn,
          'datasetProperties',
          { v: 1 },
          { keyAspect, systemMetadata: runOf('r3', 3), created: stamp(3) },
        ),
        aspectWrite('CREATE', urn, 'datasetProperties', { v: 'refused' }, { created: stamp(4) }),
        refusingPatch(urn, 'datasetProperties'),
        upsert(
          urn,
          'datasetProperties',
          { v: 2 },
          { keyAspect, systemMetadata: runOf('r4', 5), created: stamp(5) },
        ),
        upsert(
          urn,
          'datasetProperties',
          { v: 2 },
          { keyAspect, systemMetadata: runOf('r5', 6), created: stamp(6) },
        ),
        upsert(urn, 'datasetProperties', { v: 3 }, { keyAspect, created: stamp(7) }),
        upsert(urn, 'browsePathsV2', { path: [{ id: 'moved' }] }, { keyAspect, created: stamp(8) }),
      ];
      const firsts: ApplyResult[] = [];
      // One write per batch, as separate deliveries.
      for (const write of writes) firsts.push(...(await store().applyBatch([write])));
      expect(firsts.map((r) => r.status)).toEqual([
        'CREATED',
        'UNCHANGED',
        'UNCHANGED',
        'CONFLICT',
        'INVALID',
        'UPDATED',
        'UNCHANGED',
        'UPDATED',
        'UPDATED',
      ]);
      expect(firsts[0]?.defaultsCreated).toHaveLength(2);
      expect(firsts[1]?.previous?.systemMetadata?.runId).toBe('r1');
      await expectReplays(store(), [urn], writes, firsts);
    });

    it('answers as first answered after the aspect was deleted and written anew', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'deleted');
      const keyAspect = datasetKeyOf(urn);
      const same = { keyAspect, created: stamp(10) };
      const writes = [
        upsert(urn, 'datasetProperties', { v: 1 }, { ...same, systemMetadata: runOf('r1', 1) }),
        upsert(urn, 'datasetProperties', { v: 2 }, same),
        aspectWrite('DELETE', urn, 'datasetProperties', undefined),
        // The same values and audit stamp again, at the same version numbers, with other system metadata.
        upsert(urn, 'datasetProperties', { v: 1 }, { ...same, systemMetadata: runOf('r2', 2) }),
        upsert(urn, 'datasetProperties', { v: 2 }, same),
        aspectWrite('DELETE', urn, 'datasetProperties', undefined),
        upsert(urn, 'datasetProperties', { v: 3 }, same),
      ];
      const firsts: ApplyResult[] = [];
      for (const write of writes) firsts.push(...(await store().applyBatch([write])));
      expect(firsts.map((r) => r.status)).toEqual([
        'CREATED',
        'UPDATED',
        'DELETED',
        'CREATED',
        'UPDATED',
        'DELETED',
        'CREATED',
      ]);
      expect(firsts[0]?.current?.systemMetadata?.runId).toBe('r1');
      expect(firsts[3]?.current?.systemMetadata?.runId).toBe('r2');
      await expectReplays(store(), [urn], writes, firsts);
    });

    it('answers a DELETE_ENTITY, and the writes before it, as first answered after the entity was written anew', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'entity');
      const other = datasetUrn(uniqueNamespace(), 'untouched');
      const keyAspect = datasetKeyOf(urn);
      const entityDefaults = [{ name: 'browsePathsV2', value: { path: [{ id: 'hive' }] } }];
      const writes = [
        upsert(urn, 'datasetProperties', { v: 1 }, { keyAspect, entityDefaults, created: stamp(20) }),
        upsert(urn, 'ownership', { owners: ['a'] }, { keyAspect, created: stamp(21) }),
        upsert(urn, 'datasetProperties', { v: 2 }, { keyAspect, created: stamp(22) }),
        upsert(other, 'datasetProperties', { v: 'other' }, { keyAspect: datasetKeyOf(other) }),
        aspectWrite('DELETE_ENTITY', urn, 'datasetKey', undefined),
        upsert(urn, 'datasetProperties', { v: 1 }, { keyAspect, entityDefaults, created: stamp(20) }),
        aspectWrite('DELETE_ENTITY', urn, 'datasetKey', undefined),
        upsert(urn, 'status', { removed: false }, { keyAspect, created: stamp(23) }),
      ];
      // All in one delivery, and then each alone.
      const firsts = await store().applyBatch(writes);
      expect(firsts.map((r) => r.status)).toEqual([
        'CREATED',
        'CREATED',
        'UPDATED',
        'CREATED',
        'DELETED',
        'CREATED',
        'DELETED',
        'CREATED',
      ]);
      expect(firsts[4]?.removed?.map((r) => r.aspect).sort()).toEqual([
        'browsePathsV2',
        'datasetKey',
        'datasetProperties',
        'ownership',
      ]);
      await expectReplays(store(), [urn, other], writes, firsts);
      for (const [i, write] of writes.entries()) {
        expect(await store().applyBatch([write])).toEqual([{ ...firsts[i], replayed: true }]);
      }
    });
  });
}
