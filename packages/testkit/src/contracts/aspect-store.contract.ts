import type { AspectStore, SystemMetadata } from '@catalog/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  aspectWrite,
  datasetKeyOf,
  datasetUrn,
  stamp,
  uniqueNamespace,
  upsert,
} from './aspect-store-fixtures.js';
import { aspectStorePatchCases } from './aspect-store-patch.cases.js';
import { aspectStoreReadContract } from './aspect-store-reads.contract.js';
import { aspectStoreReplayCases } from './aspect-store-replay.cases.js';
import { aspectStoreRequestCases, type AspectStoreTestOptions } from './aspect-store-requests.cases.js';
import { aspectStoreRetentionCases } from './aspect-store-retention.cases.js';
import { aspectStoreRunCases } from './aspect-store-runs.cases.js';
import { aspectStoreSystemMetadataCases } from './aspect-store-system-metadata.cases.js';

export interface AspectStoreUnderTest {
  readonly store: AspectStore;
  cleanup(): Promise<void>;
  /**
   * Rewrites the stored system metadata of every version of one aspect behind the store's back, to
   * make data as an older release stored it. The cases that need it are skipped without it.
   */
  editSystemMetadata?(urn: string, aspect: string, edit: SystemMetadataEdit): Promise<void>;
}

export type { AspectStoreTestOptions } from './aspect-store-requests.cases.js';

export type SystemMetadataEdit = (stored: SystemMetadata | null) => SystemMetadata | null;

/** The adapter under test's editSystemMetadata, if it has one. */
export type CurrentEditor = () => AspectStoreUnderTest['editSystemMetadata'];

/** The store a test is running against; a fresh one per test, from the adapter's factory. */
export type CurrentAspectStore = () => AspectStore;

/**
 * The behaviour every AspectStore adapter must show. Each test gets a fresh store from `factory` and
 * uses its own URNs too, so an adapter whose factory hands out one shared database still passes. The
 * request-retention cases call `factory` with options (clock, dedup window, row bound) it must pass on.
 */
export function aspectStoreContract(
  name: string,
  factory: (options?: AspectStoreTestOptions) => Promise<AspectStoreUnderTest>,
): void {
  describe(`AspectStore contract: ${name}`, () => {
    let underTest: AspectStoreUnderTest | undefined;
    const store: CurrentAspectStore = () => {
      if (underTest === undefined) throw new Error('store not opened');
      return underTest.store;
    };
    beforeEach(async () => {
      underTest = await factory();
    });
    afterEach(async () => {
      await underTest?.cleanup();
      underTest = undefined;
    });

    it('answers ping while open, and refuses it once closed', async () => {
      await expect(store().ping()).resolves.toBeUndefined();
      await store().close();
      await expect(store().ping()).rejects.toThrow();
    });

    aspectStoreWriteContract(store);
    aspectStorePatchCases(store);
    aspectStoreReplayCases(store);
    aspectStoreSystemMetadataCases(store, () => underTest?.editSystemMetadata);
    aspectStoreReadContract(store);
    aspectStoreRunCases(store);
    aspectStoreRetentionCases(store);
    aspectStoreRequestCases((options) => factory(options));
  });
}

function aspectStoreWriteContract(store: CurrentAspectStore): void {
  const apply = async (...writes: Parameters<AspectStore['applyBatch']>[0]) => store().applyBatch(writes);

  describe('versioning', () => {
    it('stores a first write as version 0 and creates the key aspect once', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'first');
      const keyAspect = datasetKeyOf(urn);
      const created = stamp(1_000, { impersonator: 'urn:li:corpuser:delegate' });
      const [first] = await apply(upsert(urn, 'datasetProperties', { name: 'a' }, { keyAspect, created }));
      expect(first).toMatchObject({ status: 'CREATED', replayed: false });
      expect(first?.previous).toBeUndefined();
      expect(first?.current).toMatchObject({
        urn,
        aspect: 'datasetProperties',
        version: 0,
        value: { name: 'a' },
      });
      expect(first?.current?.created).toEqual(created);
      expect(first?.keyCreated).toMatchObject({
        urn,
        aspect: 'datasetKey',
        version: 0,
        value: keyAspect.value,
      });

      const [second] = await apply(upsert(urn, 'ownership', { owners: [] }, { keyAspect }));
      expect(second?.status).toBe('CREATED');
      expect(second?.keyCreated).toBeUndefined();
      expect(await store().listVersions(urn, 'datasetKey')).toHaveLength(1);
      expect((await store().get(urn, 'datasetKey'))?.value).toEqual(keyAspect.value);
    });

    it('does not double the key aspect when the write is the key aspect', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'key');
      const keyAspect = datasetKeyOf(urn);
      const [result] = await apply(upsert(urn, 'datasetKey', keyAspect.value, { keyAspect }));
      expect(result?.status).toBe('CREATED');
      expect(result?.keyCreated).toBeUndefined();
      expect(await store().listVersions(urn, 'datasetKey')).toHaveLength(1);
    });

    it('stores the entity defaults with the write that creates the entity, and only with it', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'defaults');
      const keyAspect = datasetKeyOf(urn);
      const entityDefaults = [
        { name: 'browsePathsV2', value: { path: [{ id: 'hive' }] } },
        { name: 'status', value: { removed: false } },
      ];
      const [first] = await apply(
        upsert(urn, 'datasetProperties', { name: 'a' }, { keyAspect, entityDefaults }),
      );
      expect(first?.keyCreated?.aspect).toBe('datasetKey');
      expect(first?.defaultsCreated?.map((d) => [d.aspect, d.value])).toEqual([
        ['browsePathsV2', { path: [{ id: 'hive' }] }],
        ['status', { removed: false }],
      ]);
      // The entity exists now: a later write's defaults are not stored, even one it lacks.
      const [second] = await apply(
        upsert(
          urn,
          'ownership',
          { owners: [] },
          {
            keyAspect,
            entityDefaults: [{ name: 'subTypes', value: { typeNames: ['Table'] } }],
          },
        ),
      );
      expect(second?.defaultsCreated).toBeUndefined();
      expect(await store().get(urn, 'subTypes')).toBeNull();
      expect((await store().get(urn, 'browsePathsV2'))?.value).toEqual({ path: [{ id: 'hive' }] });
      // A redelivery of the first write replays what it stored.
      const [again] = await apply(
        upsert(
          urn,
          'datasetProperties',
          { name: 'a' },
          { keyAspect, entityDefaults, requestId: first!.requestId },
        ),
      );
      expect(again).toMatchObject({ replayed: true, status: 'CREATED' });
      expect(again?.defaultsCreated?.map((d) => d.aspect)).toEqual(['browsePathsV2', 'status']);
    });

    it('leaves alone an entity default the new entity has already, and stores defaults with its key aspect', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'default-kept');
      const keyAspect = datasetKeyOf(urn);
      // The key aspect itself creates the entity; a default written in the same batch before it stays.
      const [status, key] = await apply(
        upsert(urn, 'status', { removed: true }),
        upsert(urn, 'datasetKey', keyAspect.value, {
          keyAspect,
          entityDefaults: [
            { name: 'status', value: { removed: false } },
            { name: 'browsePathsV2', value: { path: [] } },
          ],
        }),
      );
      expect(status?.status).toBe('CREATED');
      expect(key?.status).toBe('CREATED');
      expect(key?.defaultsCreated?.map((d) => d.aspect)).toEqual(['browsePathsV2']);
      expect((await store().get(urn, 'status'))?.value).toEqual({ removed: true });
    });

    it('moves the old version 0 to max+1 when the value changes', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'changes');
      const [a] = await apply(upsert(urn, 'datasetProperties', { v: 'A' }, { created: stamp(1) }));
      const [b] = await apply(upsert(urn, 'datasetProperties', { v: 'B' }, { created: stamp(2) }));
      expect(b).toMatchObject({
        status: 'UPDATED',
        previous: { value: { v: 'A' } },
        current: { version: 0 },
      });
      expect((await store().get(urn, 'datasetProperties', 1))?.value).toEqual({ v: 'A' });
      expect((await store().get(urn, 'datasetProperties', 0))?.value).toEqual({ v: 'B' });

      await apply(upsert(urn, 'datasetProperties', { v: 'C' }, { created: stamp(3) }));
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(versions.map((v) => [v.version, v.value['v'], v.created.time])).toEqual([
        [0, 'C', 3],
        [2, 'B', 2],
        [1, 'A', 1],
      ]);
      expect(a?.current?.created).toEqual(stamp(1));
    });

    it('applies a batch that changes hundreds of existing aspects in one call', async () => {
      const ns = uniqueNamespace();
      const urns = Array.from({ length: 250 }, (_, i) => datasetUrn(ns, `many${i}`));
      await store().applyBatch(urns.map((urn) => upsert(urn, 'datasetProperties', { v: 'A' })));
      const changed = await store().applyBatch(
        urns.map((urn) => upsert(urn, 'datasetProperties', { v: 'B' })),
      );
      expect(changed.every((r) => r.status === 'UPDATED')).toBe(true);
      const latest = await store().getLatestMany(urns, ['datasetProperties']);
      expect(urns.every((urn) => latest.get(urn)?.[0]?.value['v'] === 'B')).toBe(true);
    });

    it('treats a value with another key order as identical: UNCHANGED, lastObserved and run updated', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'same');
      const first = { a: 1, nested: { x: [1, { p: 1, q: 2 }], y: 'y' } };
      const again = { nested: { y: 'y', x: [1, { q: 2, p: 1 }] }, a: 1 };
      await apply(
        upsert(urn, 'datasetProperties', first, { systemMetadata: { lastObserved: 1_000, runId: 'run-1' } }),
      );
      const [result] = await apply(
        upsert(urn, 'datasetProperties', again, {
          systemMetadata: { lastObserved: 2_000, runId: 'run-2' },
          created: stamp(2_000),
        }),
      );
      expect(result?.status).toBe('UNCHANGED');
      expect(result?.previous?.systemMetadata?.lastObserved).toBe(1_000);
      expect(result?.current?.systemMetadata).toMatchObject({
        lastObserved: 2_000,
        runId: 'run-2',
        lastRunId: 'run-1',
      });
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(versions).toHaveLength(1);
      expect(versions[0]?.systemMetadata).toMatchObject({
        lastObserved: 2_000,
        runId: 'run-2',
        lastRunId: 'run-1',
      });
      expect(versions[0]?.created).toEqual(stamp(1_700_000_000_000));
      expect(versions[0]?.value).toEqual(first);
    });

    it('rejects CREATE of an existing aspect with CONFLICT and writes nothing', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'create');
      const [fresh] = await apply(aspectWrite('CREATE', urn, 'datasetProperties', { v: 1 }));
      expect(fresh?.status).toBe('CREATED');
      const [conflict] = await apply(
        aspectWrite('CREATE', urn, 'datasetProperties', { v: 2 }, { keyAspect: datasetKeyOf(urn) }),
      );
      expect(conflict).toMatchObject({ status: 'CONFLICT', replayed: false });
      expect(conflict?.current).toBeUndefined();
      expect(conflict?.keyCreated).toBeUndefined();
      expect(await store().listVersions(urn, 'datasetProperties')).toHaveLength(1);
      expect((await store().get(urn, 'datasetProperties'))?.value).toEqual({ v: 1 });
      expect(await store().get(urn, 'datasetKey')).toBeNull();
    });
  });

  describe('deletes', () => {
    it('DELETE removes every version of the aspect and reports the previous value', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'del');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }), upsert(urn, 'datasetProperties', { v: 2 }));
      await apply(upsert(urn, 'ownership', { owners: [] }));
      const [deleted] = await apply(aspectWrite('DELETE', urn, 'datasetProperties', undefined));
      expect(deleted).toMatchObject({ status: 'DELETED', previous: { value: { v: 2 } }, replayed: false });
      expect(await store().listVersions(urn, 'datasetProperties')).toEqual([]);
      expect(await store().get(urn, 'datasetProperties', 1)).toBeNull();
      expect(await store().get(urn, 'ownership')).not.toBeNull();
      const [again] = await apply(aspectWrite('DELETE', urn, 'datasetProperties', undefined));
      expect(again?.status).toBe('NOT_FOUND');
    });

    it('DELETE_ENTITY removes all aspects and versions of the entity, reporting version 0 of each', async () => {
      const namespace = uniqueNamespace();
      const urn = datasetUrn(namespace, 'gone');
      const other = datasetUrn(namespace, 'kept');
      const keyAspect = datasetKeyOf(urn);
      await apply(
        upsert(urn, 'datasetProperties', { v: 1 }, { keyAspect }),
        upsert(urn, 'datasetProperties', { v: 2 }, { keyAspect }),
        upsert(urn, 'ownership', { owners: ['x'] }, { keyAspect }),
        upsert(other, 'datasetProperties', { v: 9 }),
      );
      const [result] = await apply(aspectWrite('DELETE_ENTITY', urn, 'datasetKey', undefined));
      expect(result?.status).toBe('DELETED');
      const removed = [...(result?.removed ?? [])].sort((x, y) => (x.aspect < y.aspect ? -1 : 1));
      expect(removed.map((r) => [r.aspect, r.version, r.value])).toEqual([
        ['datasetKey', 0, keyAspect.value],
        ['datasetProperties', 0, { v: 2 }],
        ['ownership', 0, { owners: ['x'] }],
      ]);
      expect(await store().getLatest(urn)).toEqual([]);
      expect(await store().listVersions(urn, 'datasetProperties')).toEqual([]);
      expect((await store().get(other, 'datasetProperties'))?.value).toEqual({ v: 9 });
      const [again] = await apply(aspectWrite('DELETE_ENTITY', urn, 'datasetKey', undefined));
      expect(again?.status).toBe('NOT_FOUND');
    });
  });

  describe('idempotency and batches', () => {
    it('returns the recorded result for a request id redelivered in a later batch', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'redelivered');
      const write = upsert(urn, 'datasetProperties', { v: 1 }, { keyAspect: datasetKeyOf(urn) });
      const [original] = await apply(write);
      await apply(upsert(urn, 'datasetProperties', { v: 2 }));
      const [replay] = await apply({ ...write, value: { v: 3 } });
      expect(replay).toEqual({ ...original, replayed: true });
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(versions.map((v) => v.value)).toEqual([{ v: 2 }, { v: 1 }]);
      expect(await store().listVersions(urn, 'datasetKey')).toHaveLength(1);
    });

    it('replays a request id repeated within one batch', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'twice');
      const write = upsert(urn, 'datasetProperties', { v: 1 });
      const [first, second] = await apply(write, { ...write, value: { v: 2 } });
      expect(first?.replayed).toBe(false);
      expect(second).toEqual({ ...first, replayed: true });
      expect(await store().listVersions(urn, 'datasetProperties')).toHaveLength(1);
    });

    it('records CONFLICT and NOT_FOUND so redelivery answers the same', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'rejected');
      await apply(upsert(urn, 'datasetProperties', { v: 1 }));
      const create = aspectWrite('CREATE', urn, 'datasetProperties', { v: 2 });
      const [conflict] = await apply(create);
      const remove = aspectWrite('DELETE', urn, 'ownership', undefined);
      const [notFound] = await apply(remove);
      expect([conflict?.status, notFound?.status]).toEqual(['CONFLICT', 'NOT_FOUND']);

      // Change the state so that a re-execution would answer differently.
      await apply(
        aspectWrite('DELETE', urn, 'datasetProperties', undefined),
        upsert(urn, 'ownership', { owners: [] }),
      );
      const [conflictAgain, notFoundAgain] = await apply(create, remove);
      expect(conflictAgain).toEqual({ ...conflict, replayed: true });
      expect(notFoundAgain).toEqual({ ...notFound, replayed: true });
      expect(await store().get(urn, 'datasetProperties')).toBeNull();
      expect(await store().get(urn, 'ownership')).not.toBeNull();
    });

    it('applies a batch in order: two changes to one aspect make two versions', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'ordered');
      const results = await apply(
        upsert(urn, 'datasetProperties', { v: 'A' }),
        upsert(urn, 'datasetProperties', { v: 'B' }),
        aspectWrite('CREATE', urn, 'ownership', { owners: [] }),
        aspectWrite('CREATE', urn, 'ownership', { owners: ['late'] }),
      );
      expect(results.map((r) => r.status)).toEqual(['CREATED', 'UPDATED', 'CREATED', 'CONFLICT']);
      expect(results[1]?.previous?.value).toEqual({ v: 'A' });
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(versions.map((v) => [v.version, v.value])).toEqual([
        [0, { v: 'B' }],
        [1, { v: 'A' }],
      ]);
    });

    it('returns no results for an empty batch', async () => {
      expect(await store().applyBatch([])).toEqual([]);
    });

    it('loses and doubles nothing under 50 concurrent single-write batches to one aspect', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'contended');
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, n) => store().applyBatch([upsert(urn, 'datasetProperties', { n })])),
      );
      const statuses = results.map((batch) => batch[0]?.status);
      expect(statuses.filter((s) => s === 'CREATED')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'UPDATED')).toHaveLength(49);
      const versions = await store().listVersions(urn, 'datasetProperties');
      expect(versions.map((v) => v.version).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 50 }, (_, i) => i),
      );
      expect(versions.map((v) => v.value['n']).sort((x, y) => Number(x) - Number(y))).toEqual(
        Array.from({ length: 50 }, (_, i) => i),
      );
    });
  });
}
