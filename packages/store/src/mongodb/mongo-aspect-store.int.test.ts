import { randomUUID } from 'node:crypto';
import { aspectStoreContract, isSkipped, mongoForTests, type SystemMetadataEdit } from '@catalog/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { SystemMetadata } from '../port.js';
import type { AspectDocument } from './aspect-document.js';
import { looksUpIdsByEquality, usesIndex } from './id-lookup.js';
import { openMongoAspectStore } from './mongo-aspect-store.js';
import { readsThroughSecondaryIndexes } from './mongo-schema.js';

const service = await mongoForTests();
// No MongoDB-wire server here (no MONGODB_URI, no Docker): say why, as the other real-service suites do.
if (isSkipped(service)) console.warn(`skipping the MongoDB aspect-store contract: ${service.skip}`);

describe.skipIf(isSkipped(service))('MongoDB aspect store', () => {
  if (isSkipped(service)) return;
  const { uri } = service;
  // One fresh database for this file; every contract test uses URNs of its own inside it.
  const databaseName = `catalog_test_${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    const client = await MongoClient.connect(uri);
    await client.db(databaseName).dropDatabase();
    await client.close();
  });
  /** Runs `use` on a store over a database of its own, dropped afterwards (for what a fresh database shows). */
  async function withOwnStore(
    options: Omit<Parameters<typeof openMongoAspectStore>[0], 'uri' | 'databaseName'>,
    use: (store: Awaited<ReturnType<typeof openMongoAspectStore>>) => Promise<void>,
  ): Promise<void> {
    const own = `catalog_test_${randomUUID().slice(0, 8)}`;
    const store = await openMongoAspectStore({ uri, databaseName: own, ...options });
    try {
      await use(store);
    } finally {
      await store.close();
      const client = await MongoClient.connect(uri);
      await client.db(own).dropDatabase();
      await client.close();
    }
  }

  aspectStoreContract('MongoDB', async (options = {}) => {
    const store = await openMongoAspectStore({ uri, databaseName, ...options });
    return {
      store,
      cleanup: () => store.close(),
      /** Through a client of its own, as another process (an older release) would write the documents. */
      async editSystemMetadata(urn: string, aspect: string, edit: SystemMetadataEdit) {
        const client = await MongoClient.connect(uri);
        try {
          const aspects = client.db(databaseName).collection<AspectDocument>('aspects');
          for (const doc of await aspects.find({ urn, aspect }).toArray()) {
            const stored =
              doc.systemMetadata === null ? null : (JSON.parse(doc.systemMetadata) as SystemMetadata);
            const edited = edit(stored);
            await aspects.updateOne(
              { _id: doc._id },
              { $set: { systemMetadata: edited === null ? null : JSON.stringify(edited) } },
            );
          }
        } finally {
          await client.close();
        }
      },
    };
  });

  it('counts its work: one batch, its writes and rounds, and the commands each sent with their documents', async () => {
    const store = await openMongoAspectStore({ uri, databaseName, requestPruneIntervalMs: 0 });
    try {
      const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,stats_${randomUUID()}_${n},PROD)`;
      const before = store.workStats();
      await store.applyBatch(
        [1, 2, 3].map((n) => ({
          requestId: randomUUID(),
          mode: 'UPSERT' as const,
          urn: urn(n),
          aspect: 'status',
          value: { removed: false },
          created: { time: 1, actor: 'urn:li:corpuser:stats' },
        })),
      );
      const after = store.workStats();
      expect(after.batches - before.batches).toBe(1);
      expect(after.writes - before.writes).toBe(3);
      expect(after.rounds - before.rounds).toBe(1);
      const sent = (name: string) =>
        (after.commands[name]?.documents ?? 0) - (before.commands[name]?.documents ?? 0);
      const count = (name: string) =>
        (after.commands[name]?.count ?? 0) - (before.commands[name]?.count ?? 0);
      // Three new versions 0 in one insert, their three results recorded in another; two reads first
      // (the recorded results, the versions 0), each one query, or one per id where the server filters
      // only _id equality itself (FerretDB).
      expect(count('insert')).toBe(2);
      expect(sent('insert')).toBe(6);
      expect(count('find')).toBe(looksUpIdsByEquality(store.connection.db.client) ? 6 : 2);
      expect(after.commands['insert']?.ms).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it("reads and conditionally replaces versions 0 through the server's _id index (explain)", async () => {
    const store = await openMongoAspectStore({ uri, databaseName, requestPruneIntervalMs: 0 });
    try {
      const { db } = store.connection;
      const plan = (filter: object) =>
        db.command({ explain: { find: 'aspects', filter }, verbosity: 'queryPlanner' });
      const id = 'urn:li:dataset:(urn:li:dataPlatform:hive,explained,PROD)|status|0';
      // The lookup of one id, and the filter of the conditional replace of version 0.
      expect(usesIndex(await plan({ _id: id }))).toBe(true);
      expect(usesIndex(await plan({ _id: id, seq: 3 }))).toBe(true);
      // Many ids: one $in where the server indexes it, else one equality query each (both indexed).
      if (!looksUpIdsByEquality(db.client))
        expect(usesIndex(await plan({ _id: { $in: [id, `${id}x`] } }))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("creates the indexes beside _id exactly where the server's planner reads through them, and leaves no probe behind", async () => {
    await withOwnStore({}, async (store) => {
      const db = store.connection.db;
      const readsThrough = await readsThroughSecondaryIndexes(db);
      // The probe's answer agrees with the plan of a query the write path's neighbours make (a run's rows).
      const plan = await db.command({
        explain: { find: 'aspects', filter: { version: 0, runId: 'r' } },
        verbosity: 'queryPlanner',
      });
      expect(usesIndex(plan)).toBe(readsThrough);
      const names = (await db.collection('aspects').indexes()).map((i) => i.name).sort();
      expect(names).toEqual(
        readsThrough
          ? [
              '_id_',
              'urn_aspect_version',
              'version_run_observed',
              'version_run_urn_aspect',
              'version_urn_aspect',
            ]
          : ['_id_'],
      );
      const collections = (await db.listCollections().toArray()).map((c) => c.name).sort();
      expect(collections).toEqual(['aspects', 'requests']);
    });
  });

  it('sweeps expired request ids at every prune where appliedAt is indexed, at most every tenth of the retention where it is not', async () => {
    const HOUR = 60 * 60 * 1000;
    const clock = { now: Date.now() + 200 * 365 * 24 * HOUR };
    const options = { clock: () => clock.now, requestRetentionMs: HOUR, requestPruneIntervalMs: 0 };
    await withOwnStore(options, async (store) => {
      const indexed = await readsThroughSecondaryIndexes(store.connection.db);
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,sweep_${randomUUID()},PROD)`;
      const write = {
        requestId: randomUUID(),
        mode: 'UPSERT' as const,
        urn,
        aspect: 'status',
        value: { removed: true },
        created: { time: 1, actor: 'urn:li:corpuser:sweep' },
      };
      await store.applyBatch([write]);
      clock.now += 59 * 60 * 1000;
      await store.pruneRequests(); // sweeps: nothing has expired yet
      clock.now += 3 * 60 * 1000; // the id has expired, 3 minutes after that sweep (a tenth is 6)
      expect(await store.pruneRequests()).toBe(indexed ? 1 : 0);
      clock.now += 3 * 60 * 1000;
      expect(await store.pruneRequests()).toBe(indexed ? 0 : 1);
    });
  });

  it('replaces a client the driver reports unreachable for too long once a new connection reaches the server', async () => {
    let now = 1_000_000;
    const store = await openMongoAspectStore({
      uri,
      databaseName,
      clock: () => now,
      requestPruneIntervalMs: 0,
      reviveAfterMs: 30_000,
    });
    try {
      const first = store.connection.db.client;
      store.connection.markUnreachable(now);
      now += 29_000;
      await store.connection.reviveIfStuck();
      expect(store.connection.db.client, 'not yet: the driver may still recover').toBe(first);
      now += 2_000;
      await store.connection.reviveIfStuck();
      expect(store.connection.db.client).not.toBe(first);
      expect(store.connection.unreachableSinceMs()).toBeUndefined();
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,revived_${randomUUID()},PROD)`;
      const [result] = await store.applyBatch([
        {
          requestId: randomUUID(),
          mode: 'UPSERT',
          urn,
          aspect: 'status',
          value: { removed: true },
          created: { time: 1, actor: 'urn:li:corpuser:revive' },
        },
      ]);
      expect(result?.status).toBe('CREATED');
      expect((await store.get(urn, 'status'))?.value).toEqual({ removed: true });
      expect(store.workStats().commands['insert']?.count).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
