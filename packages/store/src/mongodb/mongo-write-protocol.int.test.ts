import { randomUUID } from 'node:crypto';
import { isSkipped, mongoForTests } from '@catalog/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { AspectWrite } from '../port.js';
import { openMongoAspectStore, type MongoAspectStoreOptions } from './mongo-aspect-store.js';
import type { WriteStep } from './write-context.js';

const service = await mongoForTests();
const DAY = 24 * 60 * 60 * 1000;

function write(
  requestId: string,
  urn: string,
  value: Record<string, unknown> | undefined,
  extra: Partial<AspectWrite> = {},
): AspectWrite {
  return {
    requestId,
    mode: 'UPSERT',
    urn,
    aspect: 'datasetProperties',
    ...(value === undefined ? {} : { value }),
    created: { time: 1, actor: 'urn:li:corpuser:test' },
    ...extra,
  };
}

const keyAspect = {
  name: 'datasetKey',
  value: { platform: 'urn:li:dataPlatform:hive', name: 'x', origin: 'PROD' },
};
const newUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,protocol.${randomUUID()},PROD)`;

/** A hook that fails the first time `step` runs for `requestId`: a crash between two steps. */
function crashOnce(step: WriteStep, requestId: string): MongoAspectStoreOptions['hooks'] {
  let crashed = false;
  return {
    afterStep(at, requestIds) {
      if (!crashed && at === step && requestIds.includes(requestId)) {
        crashed = true;
        throw new Error(`simulated crash after ${step}`);
      }
    },
  };
}

describe.skipIf(isSkipped(service))('MongoDB aspect store write protocol', () => {
  const uri = isSkipped(service) ? '' : service.uri;
  const databaseName = `catalog_protocol_${randomUUID().slice(0, 8)}`;
  const open = (options: Partial<MongoAspectStoreOptions> = {}) =>
    openMongoAspectStore({ uri, databaseName, ...options });
  afterAll(async () => {
    if (uri === '') return;
    const client = await MongoClient.connect(uri);
    await client.db(databaseName).dropDatabase();
    await client.close();
  });

  it('finishes an update whose claim was stored before the crash, without a second version', async () => {
    const urn = newUrn();
    const store = await open();
    await store.applyBatch([write('p1', urn, { v: 1 })]);
    const crashing = await open({ hooks: crashOnce('inserted', 'p2') });
    await expect(crashing.applyBatch([write('p2', urn, { v: 2 })])).rejects.toThrow(/simulated crash/);
    await crashing.close();
    const [redelivered] = await store.applyBatch([write('p2', urn, { v: 2 })]);
    expect(redelivered).toMatchObject({
      status: 'UPDATED',
      previous: { value: { v: 1 } },
      current: { value: { v: 2 } },
    });
    expect((await store.listVersions(urn, 'datasetProperties')).map((v) => [v.version, v.value])).toEqual([
      [0, { v: 2 }],
      [1, { v: 1 }],
    ]);
    expect(await store.applyBatch([write('p2', urn, { v: 2 })])).toEqual([
      { ...redelivered, replayed: true },
    ]);
    await store.close();
  });

  it('rebuilds the result of an update applied but not recorded before the crash', async () => {
    const urn = newUrn();
    const store = await open();
    await store.applyBatch([write('r1', urn, { v: 1 })]);
    const crashing = await open({ hooks: crashOnce('replaced', 'r2') });
    await expect(crashing.applyBatch([write('r2', urn, { v: 2 })])).rejects.toThrow(/simulated crash/);
    await crashing.close();
    const [redelivered] = await store.applyBatch([write('r2', urn, { v: 2 })]);
    expect(redelivered).toMatchObject({
      status: 'UPDATED',
      replayed: true,
      previous: { version: 0, value: { v: 1 } },
      current: { version: 0, value: { v: 2 } },
    });
    expect(await store.listVersions(urn, 'datasetProperties')).toHaveLength(2);
    await store.close();
  });

  it('rebuilds a create with its key aspect stored before the crash', async () => {
    const urn = newUrn();
    const crashing = await open({ hooks: crashOnce('inserted', 'c1') });
    await expect(crashing.applyBatch([write('c1', urn, { v: 1 }, { keyAspect })])).rejects.toThrow(
      /simulated crash/,
    );
    await crashing.close();
    const store = await open();
    const [redelivered] = await store.applyBatch([write('c1', urn, { v: 1 }, { keyAspect })]);
    expect(redelivered).toMatchObject({
      status: 'CREATED',
      replayed: true,
      keyCreated: { aspect: 'datasetKey' },
    });
    expect(await store.listVersions(urn, 'datasetProperties')).toHaveLength(1);
    await store.close();
  });

  it('rebuilds a create that stored its key aspect and entity defaults before the crash, storing none twice', async () => {
    const urn = newUrn();
    const entityDefaults = [
      { name: 'browsePathsV2', value: { path: [] } },
      { name: 'status', value: { removed: false } },
    ];
    const crashing = await open({ hooks: crashOnce('inserted', 'ed1') });
    await expect(
      crashing.applyBatch([write('ed1', urn, { v: 1 }, { keyAspect, entityDefaults })]),
    ).rejects.toThrow(/simulated crash/);
    await crashing.close();
    const store = await open();
    const [redelivered] = await store.applyBatch([
      write('ed1', urn, { v: 1 }, { keyAspect, entityDefaults }),
    ]);
    expect(redelivered).toMatchObject({
      status: 'CREATED',
      replayed: true,
      keyCreated: { aspect: 'datasetKey' },
    });
    expect(redelivered?.defaultsCreated?.map((d) => d.aspect).sort()).toEqual(['browsePathsV2', 'status']);
    for (const aspect of ['datasetKey', 'browsePathsV2', 'status'])
      expect(await store.listVersions(urn, aspect)).toHaveLength(1);
    // Recorded now: a second redelivery replays the same result.
    const [again] = await store.applyBatch([write('ed1', urn, { v: 1 }, { keyAspect, entityDefaults })]);
    expect(again?.defaultsCreated?.map((d) => d.aspect).sort()).toEqual(['browsePathsV2', 'status']);
    await store.close();
  });

  it('finishes a delete recorded before the crash and answers DELETED, not NOT_FOUND', async () => {
    const urn = newUrn();
    const store = await open();
    await store.applyBatch([write('d1', urn, { v: 1 }), write('d2', urn, { v: 2 })]);
    const remove = write('d3', urn, undefined, { mode: 'DELETE' });
    const crashing = await open({ hooks: crashOnce('delete-recorded', 'd3') });
    await expect(crashing.applyBatch([remove])).rejects.toThrow(/simulated crash/);
    await crashing.close();
    expect(await store.get(urn, 'datasetProperties')).not.toBeNull();
    const [redelivered] = await store.applyBatch([remove]);
    expect(redelivered).toMatchObject({ status: 'DELETED', replayed: true, previous: { value: { v: 2 } } });
    expect(await store.listVersions(urn, 'datasetProperties')).toEqual([]);
    expect(await store.get(urn, 'datasetProperties', 1)).toBeNull();
    await store.close();
  });

  it('finishes an entity delete recorded before the crash', async () => {
    const urn = newUrn();
    const store = await open();
    await store.applyBatch([write('e1', urn, { v: 1 }, { keyAspect }), write('e2', urn, { v: 2 })]);
    const remove = write('e3', urn, undefined, { mode: 'DELETE_ENTITY', aspect: 'datasetKey' });
    const crashing = await open({ hooks: crashOnce('delete-recorded', 'e3') });
    await expect(crashing.applyBatch([remove])).rejects.toThrow(/simulated crash/);
    await crashing.close();
    const [redelivered] = await store.applyBatch([remove]);
    expect(redelivered?.removed?.map((r) => r.aspect)).toEqual(['datasetKey', 'datasetProperties']);
    expect(await store.getLatest(urn)).toEqual([]);
    expect(await store.listVersions(urn, 'datasetProperties')).toEqual([]);
    await store.close();
  });

  it('takes over a claim whose writer never came back, once it is old enough', async () => {
    const urn = newUrn();
    let now = 1_000 * DAY;
    const clock = () => now;
    const store = await open({ clock, orphanClaimMs: 10_000 });
    await store.applyBatch([write('o1', urn, { v: 1 })]);
    const crashing = await open({ clock, hooks: crashOnce('inserted', 'o2') });
    await expect(crashing.applyBatch([write('o2', urn, { v: 2 })])).rejects.toThrow(/simulated crash/);
    await crashing.close();
    now += 60_000;
    const [other] = await store.applyBatch([write('o3', urn, { v: 3 })]);
    expect(other).toMatchObject({ status: 'UPDATED', previous: { value: { v: 1 } } });
    const [late] = await store.applyBatch([write('o2', urn, { v: 2 })]);
    expect(late).toMatchObject({ status: 'UPDATED', previous: { value: { v: 3 } } });
    expect((await store.listVersions(urn, 'datasetProperties')).map((v) => v.value['v'])).toEqual([2, 3, 1]);
    await store.close();
  });

  it('loses and doubles nothing when two store instances write one aspect at once', async () => {
    const urn = newUrn();
    let retries = 0;
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      debug: (obj: object) => void (retries += (obj as { writes?: number }).writes ?? 0),
    };
    const [a, b] = await Promise.all([open({ logger }), open({ logger })]);
    if (a === undefined || b === undefined) throw new Error('not opened');
    const writes = Array.from({ length: 40 }, (_, n) => write(`x${n}-${urn}`, urn, { n }));
    const results = await Promise.all(writes.map((w, n) => (n % 2 === 0 ? a : b).applyBatch([w])));
    const statuses = results.map((r) => r[0]?.status);
    expect(statuses.filter((s) => s === 'CREATED')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'UPDATED')).toHaveLength(39);
    const versions = await a.listVersions(urn, 'datasetProperties');
    expect(versions.map((v) => v.version).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i),
    );
    expect(new Set(versions.map((v) => v.value['n'])).size).toBe(40);
    // Both instances start by creating the aspect at once, so the protocol's retry path did run.
    expect(retries).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('forgets request ids older than the retention, and only those', async () => {
    let now = 2_000 * DAY;
    const store = await open({ requestRetentionMs: DAY, clock: () => now });
    const urn = newUrn();
    await store.applyBatch([write(`old-${urn}`, urn, { v: 1 })]);
    now += DAY / 2;
    await store.applyBatch([write(`recent-${urn}`, urn, { v: 2 })]);
    now += DAY / 2 + 60_000;
    await store.pruneRequests();
    const [old, recent] = await store.applyBatch([
      write(`old-${urn}`, urn, { v: 1 }),
      write(`recent-${urn}`, urn, { v: 2 }),
    ]);
    expect(old).toMatchObject({ replayed: false, status: 'UPDATED' });
    expect(recent).toMatchObject({ replayed: true, status: 'UPDATED' });
    await store.close();
  });

  it('keeps BSON-hostile keys and big integers as written, and takes the database from the URI', async () => {
    const urn = newUrn();
    const store = await open();
    const value = { customProperties: { 'a.b': '1', $where: 'x', '': 'empty' }, big: 12345678901234567890 };
    await store.applyBatch([write('k1', urn, value)]);
    expect((await store.get(urn, 'datasetProperties'))?.value).toEqual(value);
    await store.close();
    const fromUri = await openMongoAspectStore({
      uri: `${uri.replace(/\/[^/?]*(\?|$)/, `/${databaseName}$1`)}`,
    });
    expect((await fromUri.get(urn, 'datasetProperties'))?.value).toEqual(value);
    await fromUri.close();
  });
});
