import { randomUUID } from 'node:crypto';
import type { AspectWrite } from '@catalog/store';
import { openMongoAspectStore } from '@catalog/store/mongodb';
import { MongoClient } from 'mongodb';

/**
 * MongoDB(-wire) aspect store throughput, with the fair yardstick beside it: a raw unordered
 * insertMany of the same number of documents of the same shape, on the same server, with the same
 * indexes. Run: MONGODB_URI=mongodb://… pnpm exec tsx --conditions=source bench/store-mongo.ts [entities]
 */
const uri = process.env['MONGODB_URI'];
if (uri === undefined || uri === '') throw new Error('set MONGODB_URI');
const ENTITIES = Number(process.argv[2] ?? 5_000);
const databaseName = `bench_store_${randomUUID().slice(0, 8)}`;
const store = await openMongoAspectStore({ uri, databaseName });
const client = await MongoClient.connect(uri);
const db = client.db(databaseName);

let seq = 0;
const urnOf = (entity: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table${entity},PROD)`;
function valueOf(entity: number, revision: number): Record<string, unknown> {
  return {
    description: `table ${entity} revision ${revision}`,
    customProperties: { owner: 'team-a', tier: 'gold', revision: String(revision) },
    tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:finance' }],
  };
}
function write(entity: number, aspect: string, revision: number): AspectWrite {
  seq += 1;
  return {
    requestId: `bench-${seq}`,
    mode: 'UPSERT',
    urn: urnOf(entity),
    aspect,
    value: valueOf(entity, revision),
    systemMetadata: { lastObserved: Date.now(), runId: 'bench-run' },
    created: { time: Date.now(), actor: 'urn:li:corpuser:bench' },
    keyAspect: {
      name: 'datasetKey',
      value: { platform: 'urn:li:dataPlatform:hive', name: `bench.table${entity}`, origin: 'PROD' },
    },
  };
}

async function measure(label: string, units: number, run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rate = units / seconds;
  console.log(`${label}: ${units} in ${seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en')}/s`);
  return rate;
}

/** Batches of 500 writes: two aspects of each of 250 entities. */
async function batches(revision: number): Promise<void> {
  for (let start = 0; start < ENTITIES; start += 250) {
    const writes: AspectWrite[] = [];
    for (let e = start; e < Math.min(ENTITIES, start + 250); e += 1) {
      writes.push(write(e, 'datasetProperties', revision), write(e, 'ownership', revision));
    }
    await store.applyBatch(writes);
  }
}

console.log(`entities=${ENTITIES} database=${databaseName}`);
const raw = db.collection<{ _id: string; [field: string]: unknown }>('raw');
await raw.createIndex({ urn: 1, aspect: 1, version: 1 }, { unique: true });
await raw.createIndex({ version: 1, urn: 1, aspect: 1 });
const rawRate = await measure('yardstick: raw insertMany of 500 aspect documents', ENTITIES * 2, async () => {
  for (let start = 0; start < ENTITIES; start += 250) {
    const docs = [];
    for (let e = start; e < Math.min(ENTITIES, start + 250); e += 1) {
      for (const aspect of ['datasetProperties', 'ownership']) {
        docs.push({
          _id: `${urnOf(e)}|${aspect}|0`,
          urn: urnOf(e),
          aspect,
          version: 0,
          metadata: JSON.stringify(valueOf(e, 0)),
          systemMetadata: JSON.stringify({ lastObserved: Date.now(), runId: 'bench-run' }),
          createdOn: Date.now(),
          createdBy: 'urn:li:corpuser:bench',
          seq: 0,
          requestId: `raw-${e}-${aspect}`,
        });
      }
    }
    await raw.insertMany(docs, { ordered: false });
  }
});
const ratio = (rate: number) => `${((rate / rawRate) * 100).toFixed(0)}% of raw insertMany`;
const created = await measure('batch of 500 UPSERTs, new entities (+ key aspect)', ENTITIES * 2, () =>
  batches(0),
);
console.log(`  ${ratio(created)}`);
const updated = await measure('batch of 500 UPSERTs, changed values (new versions)', ENTITIES * 2, () =>
  batches(1),
);
console.log(`  ${ratio(updated)}`);
const unchanged = await measure('batch of 500 UPSERTs, same values (UNCHANGED)', ENTITIES * 2, () =>
  batches(1),
);
console.log(`  ${ratio(unchanged)}`);
const READS = 2_000;
await measure('get(urn, aspect) point reads', READS, async () => {
  for (let i = 0; i < READS; i += 1) await store.get(urnOf((i * 7919) % ENTITIES), 'ownership');
});
await measure('getLatest(urn) reads', READS / 10, async () => {
  for (let i = 0; i < READS / 10; i += 1) await store.getLatest(urnOf((i * 7919) % ENTITIES));
});
await measure('scan pages of 1000 (after cursor)', await store.count(), async () => {
  let after: string | undefined;
  do {
    const page = await store.scan({ limit: 1_000, ...(after === undefined ? {} : { after }) });
    after = page.next;
  } while (after !== undefined);
});
await store.close();
await db.dropDatabase();
await client.close();
