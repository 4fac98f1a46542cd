/**
 * Ingest throughput and latency over HTTP: synchronous single-aspect writes, and ingestProposalBatch.
 *   pnpm bench:ingest [--n 20000] [--c 16] [--batch 100] [--url http://host:8080] [--family embedded|distributed] [--auth system|token|off]
 * Without --url a catalog is started: embedded in a child process on a fresh data directory, or
 * distributed (gateway, persistence, indexer as separate processes on the local Kafka, MongoDB-wire
 * server and OpenSearch), in which case the same workload also runs against the embedded aspect store on the
 * same Kafka and OpenSearch (the launcher with only those URLs set), and the raw limit of the same
 * infrastructure is measured: each distributed row is printed with its ratio to both.
 */
import { intArg, readArgs } from './lib/args.js';
import { benchAuthEnv, benchAuthOf, benchAuthorization } from './lib/auth.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { distributedBenchEnv, startDistributedCatalog, storeWorkPerBatch } from './lib/distributed.js';
import type { StoreWorkStats } from '@catalog/store';
import { kafkaProduceConsume, mongoInsertMany } from './lib/raw-limits.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient, report, runLoad } from './lib/load.js';
import { totalLag } from './lib/pipeline-lag.js';
import { familyRunResources } from './lib/family-env.js';
import { removeRunResources } from './lib/run-resources.js';

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
const rows: Record<string, string | number>[] = [];
/** Distributed family: the aspect store's work per batch persistence applied, for each scenario. */
const storeRows: Record<string, string | number>[] = [];
const distributedCatalog = catalog !== undefined && 'persistenceStats' in catalog ? catalog : undefined;
const run = Date.now().toString(36);

/**
 * The workload against one catalog: a warm-up, then each mode asked for. `label` starts its scenario
 * names, `tag` its dataset names; `only` limits the modes; `profile` snapshots persistence's store
 * counters around a scenario.
 */
async function workload(
  url: string,
  { label, tag, only }: { label: string; tag: string; only: readonly string[] },
  profile?: () => Promise<StoreWorkStats>,
): Promise<void> {
  const client = new JsonClient(url, c, await benchAuthorization(auth, url));
  const prefix = `${tag}${run}`;
  /**
   * Waits until every consumer has caught up with what the scenario wrote (asynchronous writes are
   * applied after they are answered, indices after they are stored), so the next scenario starts on an
   * idle pipeline rather than behind the last one's backlog; the row says how long that took.
   */
  async function drained(row?: Record<string, string | number>): Promise<void> {
    const started = performance.now();
    while ((await totalLag(client)) > 0) await new Promise((r) => setTimeout(r, 200));
    if (row) row['drained after (s)'] = Number(((performance.now() - started) / 1000).toFixed(1));
  }
  async function profiled<T>(scenario: string, load: () => Promise<T>): Promise<T> {
    const before = await profile?.();
    const result = await load();
    // Synchronous writes are applied once answered; the store's counters are complete now.
    if (profile && before) storeRows.push(storeWorkPerBatch(scenario, before, await profile()));
    return result;
  }
  try {
    // Warm-up: JIT, connections, page caches.
    await runLoad(Math.min(2000, n), c, (i) =>
      client.expectOk('POST', '/aspects?action=ingestProposal', {
        proposal: propertiesProposal(datasetUrn(i, `warm${prefix}`), i),
        async: 'false',
      }),
    );
    await drained();
    if (only.includes('sync')) {
      const scenario = `${label}ingestProposal sync, c=${c}`;
      const result = await profiled(scenario, () =>
        runLoad(n, c, (i) =>
          client.expectOk('POST', '/aspects?action=ingestProposal', {
            proposal: propertiesProposal(datasetUrn(i, `s${prefix}`), i),
            async: 'false',
          }),
        ),
      );
      rows.push(report(scenario, result));
      await drained(rows[rows.length - 1]!);
    }
    if (only.includes('async')) {
      const result = await runLoad(n, c, (i) =>
        client.expectOk('POST', '/aspects?action=ingestProposal', {
          proposal: propertiesProposal(datasetUrn(i, `a${prefix}`), i),
          async: 'true',
        }),
      );
      rows.push(report(`${label}ingestProposal async, c=${c}`, result));
      await drained(rows[rows.length - 1]!);
    }
    if (only.includes('batch')) {
      const batches = Math.ceil(n / batchSize);
      const scenario = `${label}ingestProposalBatch sync, ${batchSize}/batch, c=${c}`;
      const result = await profiled(scenario, () =>
        runLoad(batches, c, (b) =>
          client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
            proposals: Array.from({ length: batchSize }, (_, j) => {
              const i = b * batchSize + j;
              return propertiesProposal(datasetUrn(i, `b${prefix}`), i);
            }),
            async: 'false',
          }),
        ),
      );
      rows.push(report(scenario, result, batchSize));
      await drained(rows[rows.length - 1]!);
    }
  } finally {
    client.close();
  }
}

const EMBEDDED_STORE = 'embedded store, same Kafka: ';
/** The distributed run's resources on the local services, and its embedded-store twin's: removed at the end. */
const own = distributedEnv && familyRunResources(distributedEnv);
const resources = {
  runIds: [...(own?.runIds ?? [])],
  indexPrefixes: [...(own?.indexPrefixes ?? []), ...(own?.indexPrefixes ?? []).map((p) => `${p}e`)],
  mongoUris: own?.mongoUris ?? [],
};
try {
  try {
    await workload(
      baseUrl,
      { label: '', tag: '', only: modes },
      distributedCatalog && (() => distributedCatalog.persistenceStats()),
    );
  } finally {
    await catalog?.stop();
  }
  if (distributedEnv) {
    // The same workload with the embedded aspect store on the same broker and OpenSearch (the launcher
    // with only those URLs set, on fresh topics and indices): what the distributed store is held to.
    const { MONGODB_URI: _store, ...sameKafka } = distributedEnv;
    const { INDEX_PREFIX: twinRun, ...fresh } = distributedBenchEnv();
    resources.runIds.push(twinRun!);
    const embeddedStore = await startCatalogProcess({
      ...sameKafka,
      ...Object.fromEntries(Object.entries(fresh).filter(([k]) => k.endsWith('_TOPIC_NAME'))),
      INDEX_PREFIX: `${String(sameKafka['INDEX_PREFIX'])}e`,
      ...benchAuthEnv(auth),
    });
    try {
      await workload(embeddedStore.baseUrl, {
        label: EMBEDDED_STORE,
        tag: 'e',
        only: modes.filter((m) => m !== 'async'),
      });
    } finally {
      await embeddedStore.stop();
    }
    for (const r of rows) {
      const scenario = String(r['scenario']);
      const twin = rows.find((x) => x['scenario'] === `${EMBEDDED_STORE}${scenario}`);
      if (twin) r['vs embedded store'] = Number((Number(r['items/s']) / Number(twin['items/s'])).toFixed(2));
    }
    // The same number of records through the bare infrastructure, with no catalog logic.
    const size = JSON.stringify(propertiesProposal(datasetUrn(0, run), 0)).length;
    const brokers = distributedEnv['KAFKA_BOOTSTRAP_SERVER']!.split(',');
    const kafka = await kafkaProduceConsume(brokers, n, size, 2);
    const mongo = await mongoInsertMany(distributedEnv['MONGODB_URI']!, n, size);
    // Every aspect crosses Kafka and then MongoDB: the serial combination is the limit of the pipeline.
    const limit = 1 / (1 / kafka + 1 / mongo);
    for (const r of rows.filter((x) => !String(x['scenario']).startsWith(EMBEDDED_STORE))) {
      r['vs raw limit'] = Number((Number(r['items/s']) / limit).toFixed(2));
    }
    rows.push({ scenario: `raw kafkajs produce+consume (${size} B records)`, 'items/s': Math.round(kafka) });
    rows.push({ scenario: 'raw MongoDB insertMany (same size)', 'items/s': Math.round(mongo) });
    rows.push({ scenario: 'raw limit (Kafka then MongoDB, per record)', 'items/s': Math.round(limit) });
  }
  console.table(rows);
  if (storeRows.length > 0) {
    console.log('aspect store work per batch persistence applied (count × documents, round-trip ms):');
    console.table(storeRows);
  }
} finally {
  if (own) await removeRunResources(resources);
}
