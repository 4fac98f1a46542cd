import type { AspectStore, AspectWrite, StoredState, SystemMetadata } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import {
  aspectWrite,
  datasetKeyOf,
  datasetUrn,
  stamp,
  uniqueNamespace,
  upsert,
} from './aspect-store-fixtures.js';
import type { CurrentEditor } from './aspect-store.contract.js';

/** The version bookkeeping of a stored system metadata: what these cases compare. */
const bookkeeping = (sm: SystemMetadata | null | undefined) => ({
  version: sm?.version,
  aspectCreated: sm?.aspectCreated,
  aspectModified: sm?.aspectModified,
});

/** A patch write setting `v`, recording the stored state it was computed from. */
function patchWrite(
  urn: string,
  v: number,
  seen: StoredState[],
  time: number,
  systemMetadata?: SystemMetadata,
): AspectWrite {
  return {
    requestId: `req-patch-${uniqueNamespace()}`,
    mode: 'UPSERT',
    urn,
    aspect: 'datasetProperties',
    created: stamp(time),
    ...(systemMetadata === undefined ? {} : { systemMetadata }),
    patch: (current, stored) => {
      seen.push(stored);
      return { ...(current ?? {}), v };
    },
  };
}

/**
 * The ecosystem's system metadata bookkeeping, set by the store on what it stores as version 0:
 * `version` "1" for the first value and one more for each new one (an identical value keeps it),
 * `aspectCreated` the first version's stamp, `aspectModified` the stamp of the write that made the
 * current version; runId only as sent, lastRunId the previous version's runId.
 */
export function aspectStoreSystemMetadataCases(store: () => AspectStore, editor: CurrentEditor): void {
  const apply = async (...writes: AspectWrite[]) => store().applyBatch(writes);

  describe('system metadata bookkeeping', () => {
    it('stamps a first write version "1", created and modified by its stamp, the key aspect too', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'first');
      const created = stamp(1_000);
      const [first] = await apply(
        upsert(
          urn,
          'datasetProperties',
          { v: 1 },
          {
            created,
            keyAspect: datasetKeyOf(urn),
            systemMetadata: { lastObserved: 1_000, properties: { eventSource: 'OPENAPI' } },
          },
        ),
      );
      const expected = {
        lastObserved: 1_000,
        properties: { eventSource: 'OPENAPI' },
        version: '1',
        aspectCreated: { actor: created.actor, time: 1_000 },
        aspectModified: { actor: created.actor, time: 1_000 },
      };
      expect(first?.current?.systemMetadata).toEqual(expected);
      expect((await store().get(urn, 'datasetProperties'))?.systemMetadata).toEqual(expected);
      expect(bookkeeping(first?.keyCreated?.systemMetadata)).toEqual(bookkeeping(expected));
      expect(bookkeeping((await store().get(urn, 'datasetKey'))?.systemMetadata)).toEqual(
        bookkeeping(expected),
      );
    });

    it('stamps a write without system metadata too', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'bare');
      const [first] = await apply(upsert(urn, 'status', { removed: false }, { created: stamp(7) }));
      expect(first?.current?.systemMetadata).toEqual({
        version: '1',
        aspectCreated: stamp(7),
        aspectModified: stamp(7),
      });
    });

    it('counts each new value: "2", "3", keeping aspectCreated and taking the new aspectModified', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'counts');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }, { created: stamp(1), systemMetadata: {} }));
      const [second] = await apply(
        upsert(
          urn,
          'datasetProperties',
          { v: 2 },
          {
            created: stamp(2, { actor: 'urn:li:corpuser:second' }),
            systemMetadata: { lastObserved: 2 },
          },
        ),
      );
      expect(second?.status).toBe('UPDATED');
      expect(bookkeeping(second?.previous?.systemMetadata)).toEqual({
        version: '1',
        aspectCreated: stamp(1),
        aspectModified: stamp(1),
      });
      expect(bookkeeping(second?.current?.systemMetadata)).toEqual({
        version: '2',
        aspectCreated: stamp(1),
        aspectModified: stamp(2, { actor: 'urn:li:corpuser:second' }),
      });
      const [third] = await apply(upsert(urn, 'datasetProperties', { v: 3 }, { created: stamp(3) }));
      expect(bookkeeping(third?.current?.systemMetadata)).toEqual({
        version: '3',
        aspectCreated: stamp(1),
        aspectModified: stamp(3),
      });
      expect(bookkeeping((await store().get(urn, 'datasetProperties'))?.systemMetadata)).toEqual(
        bookkeeping(third?.current?.systemMetadata),
      );
    });

    it('keeps the version and its stamps for an identical value; only lastObserved moves', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'identical');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }, { created: stamp(1) }));
      await apply(upsert(urn, 'datasetProperties', { v: 2 }, { created: stamp(2) }));
      const [same] = await apply(
        upsert(
          urn,
          'datasetProperties',
          { v: 2 },
          {
            created: stamp(3),
            systemMetadata: { lastObserved: 3_000 },
          },
        ),
      );
      expect(same?.status).toBe('UNCHANGED');
      const expected = { version: '2', aspectCreated: stamp(1), aspectModified: stamp(2) };
      expect(bookkeeping(same?.current?.systemMetadata)).toEqual(expected);
      expect(same?.current?.systemMetadata?.lastObserved).toBe(3_000);
      const stored = await store().get(urn, 'datasetProperties');
      expect(bookkeeping(stored?.systemMetadata)).toEqual(expected);
      expect(stored?.systemMetadata?.lastObserved).toBe(3_000);
      expect(await store().listVersions(urn, 'datasetProperties')).toHaveLength(2);
    });

    it("stores the key aspect and defaults with their own schemaVersion; an identical write takes the write's", async () => {
      const urn = datasetUrn(uniqueNamespace(), 'schema');
      const keyAspect = { ...datasetKeyOf(urn), schemaVersion: 1 };
      const entityDefaults = [{ name: 'status', value: { removed: false } }];
      await apply(
        upsert(
          urn,
          'upstreamLineage',
          { upstreams: [] },
          {
            systemMetadata: { schemaVersion: 2 },
            keyAspect,
            entityDefaults,
          },
        ),
      );
      const schemaVersions = async () =>
        Object.fromEntries(
          (await store().getLatest(urn)).map((a) => [a.aspect, a.systemMetadata?.schemaVersion]),
        );
      expect(await schemaVersions()).toEqual({ upstreamLineage: 2, datasetKey: 1, status: undefined });
      const [same] = await apply(
        upsert(urn, 'upstreamLineage', { upstreams: [] }, { systemMetadata: { schemaVersion: 3 } }),
      );
      expect(same?.status).toBe('UNCHANGED');
      expect((await schemaVersions())['upstreamLineage']).toBe(3);
    });

    it('counts a patch like an upsert, and shows the patch the stored version', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'patched');
      const seen: StoredState[] = [];
      const [created] = await apply(patchWrite(urn, 1, seen, 10));
      const [updated] = await apply(patchWrite(urn, 2, seen, 20));
      const [same] = await apply(patchWrite(urn, 2, seen, 30));
      expect([created?.status, updated?.status, same?.status]).toEqual(['CREATED', 'UPDATED', 'UNCHANGED']);
      expect(bookkeeping(created?.current?.systemMetadata)).toEqual({
        version: '1',
        aspectCreated: stamp(10),
        aspectModified: stamp(10),
      });
      expect(bookkeeping(same?.current?.systemMetadata)).toEqual({
        version: '2',
        aspectCreated: stamp(10),
        aspectModified: stamp(20),
      });
      expect(seen.map((s) => [s.versions, s.version, s.modifiedAt])).toEqual([
        [0, undefined, undefined],
        [1, '1', 10],
        [2, '2', 20],
      ]);
    });

    it('replays a redelivered request without counting it again', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'redelivered');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }, { created: stamp(1) }));
      const write = upsert(urn, 'datasetProperties', { v: 2 }, { created: stamp(2) });
      const [original] = await apply(write);
      const [replay] = await apply(write);
      const [inBatch] = (await apply(write, write)).slice(1);
      expect(replay).toEqual({ ...original, replayed: true });
      expect(inBatch).toEqual({ ...original, replayed: true });
      expect(bookkeeping((await store().get(urn, 'datasetProperties'))?.systemMetadata)).toEqual({
        version: '2',
        aspectCreated: stamp(1),
        aspectModified: stamp(2),
      });
      expect(await store().listVersions(urn, 'datasetProperties')).toHaveLength(2);
    });

    it('keeps each history row with the system metadata it had as version 0', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'history');
      for (const n of [1, 2, 3]) {
        await apply(
          upsert(
            urn,
            'datasetProperties',
            { v: n },
            {
              created: stamp(n),
              systemMetadata: { lastObserved: n * 100, properties: { n: String(n) } },
            },
          ),
        );
      }
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(
        versions.map((v) => [v.version, v.systemMetadata?.properties?.['n'], bookkeeping(v.systemMetadata)]),
      ).toEqual([
        [0, '3', { version: '3', aspectCreated: stamp(1), aspectModified: stamp(3) }],
        [2, '2', { version: '2', aspectCreated: stamp(1), aspectModified: stamp(2) }],
        [1, '1', { version: '1', aspectCreated: stamp(1), aspectModified: stamp(1) }],
      ]);
      expect(bookkeeping((await store().get(urn, 'datasetProperties', 1))?.systemMetadata)).toEqual({
        version: '1',
        aspectCreated: stamp(1),
        aspectModified: stamp(1),
      });
    });

    it('starts again at "1" after the aspect was deleted', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'again');
      await apply(upsert(urn, 'status', { removed: false }, { created: stamp(1) }));
      await apply(upsert(urn, 'status', { removed: true }, { created: stamp(2) }));
      await apply(aspectWrite('DELETE', urn, 'status', undefined));
      const [fresh] = await apply(upsert(urn, 'status', { removed: false }, { created: stamp(3) }));
      expect(bookkeeping(fresh?.current?.systemMetadata)).toEqual({
        version: '1',
        aspectCreated: stamp(3),
        aspectModified: stamp(3),
      });
    });

    it('counts data stored without a version (an older release) by its versions', async (context) => {
      const edit = editor();
      if (edit === undefined) return context.skip('the adapter cannot rewrite stored system metadata');
      const urn = datasetUrn(uniqueNamespace(), 'legacy');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }, { created: stamp(1) }));
      await apply(upsert(urn, 'datasetProperties', { v: 2 }, { created: stamp(2) }));
      // As stored before the stores kept a version: no bookkeeping, the default run id filled in.
      await edit(urn, 'datasetProperties', (sm) => {
        const { version: _v, aspectCreated: _c, aspectModified: _m, ...rest } = sm ?? {};
        return { ...rest, lastObserved: 5, runId: 'no-run-id-provided' };
      });
      expect((await store().get(urn, 'datasetProperties'))?.systemMetadata).toEqual({
        lastObserved: 5,
        runId: 'no-run-id-provided',
      });

      const seen: StoredState[] = [];
      const [same] = await apply(patchWrite(urn, 2, seen, 3, { lastObserved: 7 }));
      expect(same?.status).toBe('UNCHANGED');
      expect(seen.map((s) => [s.versions, s.version])).toEqual([[2, undefined]]);
      // The identical value gets the count as its version; its creation is not known. The default run
      // id stored is no run: the write sent none, so there is neither runId nor lastRunId.
      expect(same?.current?.systemMetadata).toEqual({ lastObserved: 7, version: '2' });
      expect((await store().get(urn, 'datasetProperties'))?.systemMetadata).toEqual(
        same?.current?.systemMetadata,
      );

      await edit(urn, 'datasetProperties', (sm) => {
        const { version: _v, ...rest } = sm ?? {};
        return rest;
      });
      const [next] = await apply(
        upsert(
          urn,
          'datasetProperties',
          { v: 3 },
          { created: stamp(4), systemMetadata: { lastObserved: 6 } },
        ),
      );
      expect(next?.current?.systemMetadata).toEqual({
        lastObserved: 6,
        version: '3',
        aspectModified: stamp(4),
      });
      expect((await store().listVersions(urn, 'datasetProperties')).map((v) => v.version)).toEqual([0, 2, 1]);
    });

    it('stores runId only as sent, and the previous runId as lastRunId', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'runs');
      const write = (v: number, systemMetadata: SystemMetadata) =>
        apply(upsert(urn, 'datasetProperties', { v }, { systemMetadata }));
      const runsOf = (sm: SystemMetadata | null | undefined) => ({
        runId: sm?.runId,
        lastRunId: sm?.lastRunId,
      });

      const [none] = await write(1, { lastObserved: 1 });
      expect(runsOf(none?.current?.systemMetadata)).toEqual({ runId: undefined, lastRunId: undefined });
      expect(none?.current?.systemMetadata).not.toHaveProperty('runId');
      expect(none?.current?.systemMetadata).not.toHaveProperty('lastRunId');
      // The previous version had no run: no lastRunId, even one the writer sent.
      const [first] = await write(2, { runId: 'run-1', lastRunId: 'sent' });
      expect(runsOf(first?.current?.systemMetadata)).toEqual({ runId: 'run-1', lastRunId: undefined });
      const [second] = await write(3, { runId: 'run-2' });
      expect(runsOf(second?.current?.systemMetadata)).toEqual({ runId: 'run-2', lastRunId: 'run-1' });
      // An identical value without a run: the write's (absent) run, the previous one as lastRunId.
      const [same] = await write(3, {});
      expect(same?.status).toBe('UNCHANGED');
      expect(runsOf(same?.current?.systemMetadata)).toEqual({ runId: undefined, lastRunId: 'run-2' });
      const [after] = await write(4, {});
      expect(runsOf(after?.current?.systemMetadata)).toEqual({ runId: undefined, lastRunId: undefined });
      // The ecosystem's default run id is no run: it is stored when sent, never carried as lastRunId.
      await write(5, { runId: 'no-run-id-provided' });
      const [next] = await write(6, { runId: 'run-3' });
      expect(runsOf(next?.current?.systemMetadata)).toEqual({ runId: 'run-3', lastRunId: undefined });
      expect(runsOf((await store().get(urn, 'datasetProperties'))?.systemMetadata)).toEqual({
        runId: 'run-3',
        lastRunId: undefined,
      });
    });
  });
}
