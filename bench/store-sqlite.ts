import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteAspectStore, type AspectWrite } from '@catalog/store';

/**
 * Embedded aspect store throughput: batches of 500 UPSERTs of distinct aspects, single-write batches,
 * and latest-value point reads. Run: pnpm exec tsx --conditions=source bench/store-sqlite.ts [power-loss]
 */
const durability = process.argv[2] === 'power-loss' ? 'power-loss' : 'process-crash';
const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
const store = await openSqliteAspectStore({ file: join(dir, 'aspects.db'), durability });

let seq = 0;
function write(entity: number, aspect: string): AspectWrite {
  seq += 1;
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table${entity},PROD)`;
  return {
    requestId: `bench-${seq}`,
    mode: 'UPSERT',
    urn,
    aspect,
    value: {
      description: `table ${entity} revision ${seq}`,
      customProperties: { owner: 'team-a', tier: 'gold', seq: String(seq) },
      tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:finance' }],
    },
    systemMetadata: { lastObserved: Date.now(), runId: 'bench-run' },
    created: { time: Date.now(), actor: 'urn:li:corpuser:bench' },
    keyAspect: {
      name: 'datasetKey',
      value: { platform: 'urn:li:dataPlatform:hive', name: `bench.table${entity}`, origin: 'PROD' },
    },
  };
}

async function measure(label: string, units: number, run: () => Promise<void>): Promise<void> {
  const started = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `${label}: ${units} in ${seconds.toFixed(2)} s = ${Math.round(units / seconds).toLocaleString('en')}/s`,
  );
}

const ENTITIES = 20_000;
console.log(`durability=${durability}`);
await measure('batch of 500 UPSERTs, new entities (+ key aspect)', ENTITIES * 2, async () => {
  for (let start = 0; start < ENTITIES; start += 250) {
    const writes: AspectWrite[] = [];
    for (let e = start; e < start + 250; e += 1)
      writes.push(write(e, 'datasetProperties'), write(e, 'ownership'));
    await store.applyBatch(writes);
  }
});
await measure('batch of 500 UPSERTs, changed values (new versions)', ENTITIES * 2, async () => {
  for (let start = 0; start < ENTITIES; start += 250) {
    const writes: AspectWrite[] = [];
    for (let e = start; e < start + 250; e += 1)
      writes.push(write(e, 'datasetProperties'), write(e, 'ownership'));
    await store.applyBatch(writes);
  }
});
const SINGLES = 20_000;
await measure('single-write batches', SINGLES, async () => {
  for (let i = 0; i < SINGLES; i += 1) await store.applyBatch([write(i % ENTITIES, 'status')]);
});
const READS = 100_000;
await measure('getLatest point reads', READS, async () => {
  for (let i = 0; i < READS; i += 1)
    await store.getLatest(
      `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table${(i * 7919) % ENTITIES},PROD)`,
    );
});
await measure('get(urn, aspect) point reads', READS, async () => {
  for (let i = 0; i < READS; i += 1) {
    await store.get(
      `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table${(i * 7919) % ENTITIES},PROD)`,
      'ownership',
    );
  }
});
await measure('scan pages of 1000 (after cursor)', await store.count(), async () => {
  let after: string | undefined;
  do {
    const page = await store.scan({ limit: 1_000, ...(after === undefined ? {} : { after }) });
    after = page.next;
  } while (after !== undefined);
});
await store.close();
rmSync(dir, { recursive: true, force: true });
