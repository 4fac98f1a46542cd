/**
 * The read side at scale, through the whole pipeline: loads N datasets (5 aspects each) over HTTP,
 * measures indexing throughput (until the indexer's lag is zero), search / browse / autocomplete latency
 * over HTTP, a search across every entity type (GraphQL) once a few entities of other types follow the
 * datasets, then a full restore of the indices from the store with the system-update job. Prints what it
 * costs as well: the catalog's resident memory (as the catalog reports it) after loading, after the
 * queries, after the cross-entity searches and once restarted on the restored data, the restore's peak;
 * and, embedded, the data directory's size by file and component, in total and per aspect written, with
 * the tables of each file, and as a multiple of the written aspects' own JSON (the store and search index
 * together; the whole).
 *   pnpm bench:search [--n 100000] [--family embedded|distributed] [--from built|source]
 * The catalog and system-update run from the built output (`pnpm build` first), as users run them;
 * `--from source` runs them through tsx instead (no build, more memory).
 * `distributed` uses KAFKA_BOOTSTRAP_SERVER, MONGODB_URI and OPENSEARCH_URL (pnpm infra:up) with a fresh
 * database, index prefix and topic set.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intArg, readArgs } from './lib/args.js';
import {
  catalogMemory,
  dataDirUsage,
  diskTable,
  memoryRow,
  proposalJsonBytes,
  sqliteTables,
  watchPeakMemory,
  type DiskSnapshot,
} from './lib/footprint.js';
import { benchFamilyEnv, familyRunResources } from './lib/family-env.js';
import { removeRunResources } from './lib/run-resources.js';
import { totalLag } from './lib/pipeline-lag.js';
import { buildCatalog, builtEntry, startCatalogProcess } from './lib/catalog-process.js';
import {
  BENCH_PLATFORMS,
  BENCH_TAGS,
  COMMONEST_FIELD_WORD,
  datasetProposals,
  laterEntityProposals,
  SEARCH_WORDS,
} from './lib/dataset-aspects.js';
import { JsonClient, percentile, runLoad } from './lib/load.js';

const args = readArgs({ n: '100000', family: 'embedded', queries: '300', from: 'built' });
if (args.from !== 'built' && args.from !== 'source')
  throw new Error(`--from must be built or source, got ${args.from}`);
const built = args.from === 'built';
if (built) buildCatalog();
const n = intArg(args.n, 'n');
const queries = intArg(args.queries, 'queries');
const run = `b${randomBytes(3).toString('hex')}`;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const env = benchFamilyEnv(args.family!, run, repoRoot);
const rows: Record<string, string | number>[] = [];
const row = (scenario: string, fields: Record<string, string | number>) => {
  rows.push({ scenario, ...fields });
  console.log(JSON.stringify({ scenario, ...fields }));
};

// What it costs: the catalog's memory at some moments, and (embedded) its data directory on disk.
const dataDir = env['CATALOG_DATA_DIR']!;
const onDisk = args.family === 'embedded';
const memoryRows: Record<string, string | number>[] = [];
const recordMemory = async (client: JsonClient, moment: string): Promise<void> => {
  const memory = await catalogMemory(client);
  memoryRows.push({ '': moment, ...memoryRow(memory) });
  console.log(JSON.stringify({ memory: moment, ...memory }));
};
const disk: DiskSnapshot[] = [];
const tables: { title: string; rows: Record<string, string | number>[] }[] = [];
/** The UTF-8 bytes of the JSON values of every aspect written so far. */
let jsonBytes = 0;
const recordDisk = (label: string, aspects: number, tablesOf: readonly string[]): void => {
  if (!onDisk) return;
  const entries = dataDirUsage(dataDir);
  disk.push({ label, entries, aspects, jsonBytes });
  console.log(JSON.stringify({ disk: label, aspects, jsonBytes, entries }));
  for (const name of tablesOf)
    tables.push({ title: `${name}, ${label}`, rows: sqliteTables(join(dataDir, name), aspects) });
};
const SQLITE_FILES = ['search.sqlite', 'aspects.sqlite', 'eventlog.sqlite', 'audit.sqlite'];

async function latency(
  client: JsonClient,
  label: string,
  body: (i: number) => [string, unknown],
): Promise<void> {
  // Each query's latency with its index and wall-clock start, so a tail can be told from the first
  // query (which builds the in-memory structures) and lined up with the catalog's own logs.
  const timed: { ms: number; i: number; at: number }[] = [];
  const result = await runLoad(queries, 1, async (i) => {
    const [path, payload] = body(i);
    const at = Date.now();
    const t0 = performance.now();
    await client.expectOk('POST', path, payload);
    timed.push({ ms: performance.now() - t0, i, at });
  });
  // One timing per query: the percentiles and the slowest queries come from the same measurements.
  const sorted = timed.map(({ ms }) => ms).sort((a, b) => a - b);
  const slowest = [...timed].sort((a, b) => b.ms - a.ms).slice(0, 3);
  row(label, {
    'p50 ms': +percentile(sorted, 50).toFixed(2),
    'p99 ms': +percentile(sorted, 99).toFixed(2),
    'slowest ms@query': slowest.map(({ ms, i }) => `${ms.toFixed(0)}@${i}`).join(' '),
    errors: result.errors,
  });
  for (const { ms, i, at } of slowest)
    console.log(
      JSON.stringify({ slow: label, query: i, ms: +ms.toFixed(1), at: new Date(at).toISOString() }),
    );
}

const word = (i: number) => SEARCH_WORDS[(i * 7) % SEARCH_WORDS.length]!;
const SEARCH_ACROSS_ENTITIES = `query ($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn type } } }
}`;

const CATALOG_MAIN = 'services/catalog/src/main.ts';
const catalog = await startCatalogProcess({ ...env, LOG_LEVEL: 'warn' }, CATALOG_MAIN, { built });
const client = new JsonClient(catalog.baseUrl, 8);
/** Datasets written so far (5 aspects each): the load, then those of the consistency check. */
let datasets = n;
/** Aspects of other entity types, written for the cross-entity searches. */
let laterAspects = 0;
try {
  const batch = 100; // datasets per request: 500 aspects
  const started = performance.now();
  const load = await runLoad(Math.ceil(n / batch), 4, (b) => {
    const proposals = Array.from({ length: Math.min(batch, n - b * batch) }, (_, j) =>
      datasetProposals(b * batch + j, run),
    ).flat();
    jsonBytes += proposalJsonBytes(proposals);
    return client.expectOk('POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
  });
  const stored = performance.now();
  row('store (ingestProposalBatch, 500 aspects/request, c=4)', {
    aspects: n * 5,
    'aspects/s': Math.round((n * 5) / ((stored - started) / 1000)),
    errors: load.errors,
  });
  while ((await totalLag(client)) > 0) await new Promise((r) => setTimeout(r, 200));
  const indexed = performance.now();
  row('indexing (write start → indexer lag 0)', {
    entities: n,
    'entities/s': Math.round(n / ((indexed - started) / 1000)),
    'aspects/s': Math.round((n * 5) / ((indexed - started) / 1000)),
  });
  await recordMemory(client, 'after loading');
  recordDisk('loaded', n * 5, []);

  const search = (input: string, filter?: unknown): [string, unknown] => [
    '/entities?action=search',
    { entity: 'dataset', input, start: 0, count: 10, ...(filter ? { filter } : {}) },
  ];
  await latency(client, 'search: full text, 1 word (~23% match; with facets)', (i) => search(word(i)));
  await latency(client, 'search: full text, 2 words', (i) => search(`${word(i)} ${word(i + 3)}`));
  await latency(client, 'search: full text, commonest column word (99% match)', () =>
    search(COMMONEST_FIELD_WORD),
  );
  await latency(client, 'search: filtered (platform + tag)', (i) =>
    search('*', {
      or: [
        {
          and: [
            {
              field: 'platform',
              condition: 'EQUAL',
              values: [`urn:li:dataPlatform:${BENCH_PLATFORMS[i % BENCH_PLATFORMS.length]}`],
            },
            {
              field: 'tags',
              condition: 'EQUAL',
              values: [`urn:li:tag:${BENCH_TAGS[i % BENCH_TAGS.length]}`],
            },
          ],
        },
      ],
    }),
  );
  await latency(client, 'search: text + filter + facets', (i) =>
    search(word(i), { or: [{ and: [{ field: 'origin', condition: 'EQUAL', values: ['PROD'] }] }] }),
  );
  await latency(client, 'browse: platform level', (i) => [
    '/entities?action=browse',
    { entity: 'dataset', path: `/prod/${BENCH_PLATFORMS[i % BENCH_PLATFORMS.length]}`, start: 0, limit: 10 },
  ]);
  await latency(client, 'browse: database level', (i) => [
    '/entities?action=browse',
    {
      entity: 'dataset',
      path: `/prod/${BENCH_PLATFORMS[i % BENCH_PLATFORMS.length]}/${run}_db${i % 40}`,
      start: 0,
      limit: 10,
    },
  ]);
  await latency(client, 'autocomplete: 3-letter prefix', (i) => [
    '/entities?action=autocomplete',
    { entity: 'dataset', query: word(i).slice(0, 3), limit: 10 },
  ]);

  // Eventual consistency: from an acknowledged synchronous write to the entity answering a search.
  const lags: number[] = [];
  for (let k = 0; k < Math.min(queries, 200); k++) {
    const i = n + k;
    const proposals = datasetProposals(i, run);
    jsonBytes += proposalJsonBytes(proposals);
    await client.expectOk('POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
    const acked = performance.now();
    const urn = (datasetProposals(i, run)[0] as { entityUrn: string }).entityUrn;
    for (;;) {
      const res = JSON.parse(
        await client.expectOk('POST', '/entities?action=search', {
          entity: 'dataset',
          input: urn,
          start: 0,
          count: 1,
        }),
      ) as {
        value: { numEntities: number };
      };
      if (res.value.numEntities > 0) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    lags.push(performance.now() - acked);
    datasets = i + 1;
  }
  const sortedLags = [...lags].sort((a, b) => a - b);
  row('consistency: acknowledged write → searchable', {
    'p50 ms': +percentile(sortedLags, 50).toFixed(1),
    'p99 ms': +percentile(sortedLags, 99).toFixed(1),
  });
  await recordMemory(client, 'after the queries');

  // A search across every entity type, as the UI's search bar sends it, once entities of other types
  // have been written after the datasets (as a catalog grows): measured after the memory above, so that
  // what it adds shows on a row of its own.
  const later = Array.from({ length: 100 }, (_, i) => laterEntityProposals(i, run)).flat();
  jsonBytes += proposalJsonBytes(later);
  await client.expectOk('POST', '/aspects?action=ingestProposalBatch', { proposals: later, async: 'false' });
  laterAspects = later.length;
  while ((await totalLag(client)) > 0) await new Promise((r) => setTimeout(r, 200));
  const across = (i: number): [string, unknown] => [
    '/api/graphql',
    { query: SEARCH_ACROSS_ENTITIES, variables: { input: { query: word(i), start: 0, count: 10 } } },
  ];
  await latency(client, 'search across entities, 1 word (GraphQL, every type)', across);
  const answer = JSON.parse(await client.expectOk('POST', ...across(0))) as {
    data?: { searchAcrossEntities?: { total: number; searchResults: { entity: { type: string } }[] } };
    errors?: unknown;
  };
  const types = new Set(answer.data?.searchAcrossEntities?.searchResults.map((r) => r.entity.type));
  if (answer.errors !== undefined || (answer.data?.searchAcrossEntities?.total ?? 0) === 0)
    throw new Error(`searchAcrossEntities answered ${JSON.stringify(answer).slice(0, 500)}`);
  console.log(
    JSON.stringify({ across: word(0), total: answer.data?.searchAcrossEntities?.total, types: [...types] }),
  );
  await recordMemory(client, 'after the cross-entity searches');
} finally {
  client.close();
  await catalog.stop({ keepData: true });
}
recordDisk('stopped', datasets * 5 + laterAspects, SQLITE_FILES);

// A full restore of every index from the store, as the system-update job does it.
let restorePeakRss: number | undefined;
const restore = await new Promise<string>((done, fail) => {
  const main = 'services/system-update/src/main.ts';
  const child = spawn(
    process.execPath,
    [
      ...(built
        ? [resolve(repoRoot, builtEntry(main))]
        : ['--conditions=source', '--import', 'tsx', resolve(repoRoot, main)]),
      'restore-indices',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const peak = watchPeakMemory(child.pid);
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.on('exit', (code) => {
    restorePeakRss = peak();
    return code === 0 ? done(out) : fail(new Error(`system-update exited ${code}: ${out.slice(-2000)}`));
  });
});
const report = restore
  .split('\n')
  .filter((l) => l.includes('indices restored'))
  .map(
    (l) =>
      JSON.parse(l) as { aspects: number; entities: number; durationMs: number; aspectsPerSecond: number },
  )[0];
if (report)
  row('restore indices (system-update, from the store)', {
    aspects: report.aspects,
    'aspects/s': report.aspectsPerSecond,
    'duration s': +(report.durationMs / 1000).toFixed(1),
  });
if (restorePeakRss !== undefined)
  memoryRows.push({
    '': 'restore (system-update process), peak',
    'rss MiB': +(restorePeakRss / 2 ** 20).toFixed(1),
  });
recordDisk('restored', datasets * 5 + laterAspects, ['search.sqlite']);

// The catalog again, on the restored data: what a fresh start on it holds once it has served queries.
const restarted = await startCatalogProcess({ ...env, LOG_LEVEL: 'warn' }, CATALOG_MAIN, { built });
const again = new JsonClient(restarted.baseUrl, 8);
try {
  while ((await totalLag(again)) > 0) await new Promise((r) => setTimeout(r, 200));
  await latency(again, 'restarted on the restored data: search, 1 word', (i) => [
    '/entities?action=search',
    { entity: 'dataset', input: SEARCH_WORDS[(i * 7) % SEARCH_WORDS.length]!, start: 0, count: 10 },
  ]);
  await recordMemory(again, 'restarted on the restored data');
} finally {
  again.close();
  await restarted.stop({ keepData: true });
}
if (process.env['BENCH_KEEP'] === '1') console.log(`BENCH_KEEP=1: left the data directory ${dataDir}`);
else await catalog.cleanup();
const resources = familyRunResources(env);
if (resources) await removeRunResources(resources);
console.table(rows);
console.log("The catalog's memory (its own report: the whole process, consumer threads included)");
console.table(memoryRows);
if (onDisk) {
  console.log(
    `The data directory (${n} datasets loaded, 5 aspects each; B/aspect: bytes per aspect written so far; ` +
      'loaded: catalog running, after indexing; stopped: after the queries, closed; restored: after system-update)',
  );
  console.table(diskTable(disk));
  for (const { title, rows: lines } of tables) {
    console.log(title);
    console.table(lines);
  }
}
