/**
 * Ingest throughput and latency over HTTP: synchronous single-aspect writes, and ingestProposalBatch.
 *   pnpm bench:ingest [--n 20000] [--c 16] [--batch 100] [--url http://host:8080] [--family embedded|distributed] [--auth system|token|off]
 * Without --url a catalog is started: embedded in a child process on a fresh data directory, or
 * distributed (gateway, persistence, indexer as separate processes on the local Kafka, MongoDB-wire
 * server and OpenSearch), in which case the raw limit of the same infrastructure is measured too.
 */
import { intArg, readArgs } from './lib/args.js';
import { benchAuthEnv, benchAuthOf, benchAuthorization } from './lib/auth.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { distributedBenchEnv, startDistributedCatalog, storeWorkPerBatch } from './lib/distributed.js';
import { kafkaProduceConsume, mongoInsertMany } from './lib/raw-limits.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient, report, runLoad } from './lib/load.js';

const args = readArgs({
  n: '20000',
  c: '16',
  batch: '100',
  url: '',
  mode: 'sync,async,batch',
  family: 'embedded',
  auth: 'system',
});
const auth = benchAuthOf(args.auth);
const n = intArg(args.n, 'n');
const c = intArg(args.c, 'c');
const batchSize = intArg(args.batch, 'batch');
const modes = args.mode.split(',');

const distributed = args.family === 'distributed';
if (!distributed && args.family !== 'embedded') throw new Error('--family is embedded or distributed');
const distributedEnv = distributed ? distributedBenchEnv() : undefined;
const catalog = args.url
  ? undefined
  : distributedEnv
    ? await startDistributedCatalog({ ...distributedEnv, ...benchAuthEnv(auth) })
    : await startCatalogProcess(benchAuthEnv(auth));
const baseUrl = args.url || catalog!.baseUrl;
const client = new JsonClient(baseUrl, c, await benchAuthorization(auth, baseUrl));
const rows: Record<string, string | number>[] = [];
/** Distributed family: the aspect store's work per batch persistence applied, for each scenario. */
const storeRows: Record<string, string | number>[] = [];
const distributedCatalog = catalog !== undefined && 'persistenceStats' in catalog ? catalog : undefined;
async function profiled<T>(scenario: string, load: () => Promise<T>): Promise<T> {
  const before = await distributedCatalog?.persistenceStats();
  const result = await load();
  if (distributedCatalog && before) {
    // Synchronous writes are applied once answered; the store's counters are complete now.
    storeRows.push(storeWorkPerBatch(scenario, before, await distributedCatalog.persistenceStats()));
  }
  return result;
}
const run = Date.now().toString(36);

try {
  // Warm-up: JIT, connections, SQLite page cache.
  await runLoad(Math.min(2000, n), c, (i) =>
    client.expectOk('POST', '/aspects?action=ingestProposal', {
      proposal: propertiesProposal(datasetUrn(i, `warm${run}`), i),
      async: 'false',
    }),
  ).then(() => undefined);

  if (modes.includes('sync')) {
    const result = await profiled(`ingestProposal sync, c=${c}`, () =>
      runLoad(n, c, (i) =>
        client.expectOk('POST', '/aspects?action=ingestProposal', {
          proposal: propertiesProposal(datasetUrn(i, `s${run}`), i),
          async: 'false',
        }),
      ),
    );
    rows.push(report(`ingestProposal sync, c=${c}`, result));
  }
  if (modes.includes('async')) {
    const result = await runLoad(n, c, (i) =>
      client.expectOk('POST', '/aspects?action=ingestProposal', {
        proposal: propertiesProposal(datasetUrn(i, `a${run}`), i),
        async: 'true',
      }),
    );
    rows.push(report(`ingestProposal async, c=${c}`, result));
  }
  if (modes.includes('batch')) {
    const batches = Math.ceil(n / batchSize);
    const result = await profiled(`ingestProposalBatch sync, ${batchSize}/batch, c=${c}`, () =>
      runLoad(batches, c, (b) =>
        client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
          proposals: Array.from({ length: batchSize }, (_, j) => {
            const i = b * batchSize + j;
            return propertiesProposal(datasetUrn(i, `b${run}`), i);
          }),
          async: 'false',
        }),
      ),
    );
    rows.push(report(`ingestProposalBatch sync, ${batchSize}/batch, c=${c}`, result, batchSize));
  }
  if (distributedEnv) {
    // The same number of records through the bare infrastructure, with no catalog logic.
    const size = JSON.stringify(propertiesProposal(datasetUrn(0, run), 0)).length;
    const brokers = distributedEnv['KAFKA_BOOTSTRAP_SERVER']!.split(',');
    const kafka = await kafkaProduceConsume(brokers, n, size, 2);
    const mongo = await mongoInsertMany(distributedEnv['MONGODB_URI']!, n, size);
    // Every aspect crosses Kafka and then MongoDB: the serial combination is the limit of the pipeline.
    const limit = 1 / (1 / kafka + 1 / mongo);
    rows.push({ scenario: `raw kafkajs produce+consume (${size} B records)`, 'items/s': Math.round(kafka) });
    rows.push({ scenario: 'raw MongoDB insertMany (same size)', 'items/s': Math.round(mongo) });
    rows.push({ scenario: 'raw limit (Kafka then MongoDB, per record)', 'items/s': Math.round(limit) });
    for (const r of rows.filter((x) => String(x['scenario']).startsWith('ingestProposal'))) {
      r['vs raw limit'] = Number((Number(r['items/s']) / limit).toFixed(2));
    }
  }
  console.table(rows);
  if (storeRows.length > 0) {
    console.log('aspect store work per batch persistence applied (count × documents, round-trip ms):');
    console.table(storeRows);
  }
} finally {
  client.close();
  await catalog?.stop();
}
