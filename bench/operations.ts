/**
 * Operational endpoints at volume: hard deletes, the rollback of a large run, metadata-test evaluation.
 *   pnpm bench:operations [--part delete|rollback|tests|all] [--family embedded|distributed]
 *                         [--auth system|token|off] [--url http://host:8080]
 *                         [--entities 10000] [--run-aspects 100000] [--c 16]
 * Without --url a catalog is started in a child process: embedded on a fresh data directory, or
 * `distributed` on the local Kafka, MongoDB-wire server and OpenSearch with a database, index prefix and
 * topic set of this run (pnpm infra:up, then set -a; . /tmp/catalog-infra/env; set +a).
 * Part `delete`: seeds N datasets (ingestProposalBatch, 2-3 aspects each), waits until search counts
 * them, then `POST /entities?action=delete {urn}` for each at concurrency C; reports deletes/s, p50/p99
 * and the time from the first delete until search for those datasets answers total 0.
 * Part `rollback`: writes M aspects (5 per dataset, M/5 datasets) carrying one runId, then times
 * `POST /runs?action=rollback` dry (dryRun: true) and real (safe: true), and checks `/runs?action=list`
 * no longer lists the run (or lists it with 0 rows).
 * Part `tests`: creates one metadata test through GraphQL `createTest`, seeds N datasets, and runs
 * `POST /gms/test?action=batchEvaluate` (100 urns per call) over all of them at concurrency C, without
 * storing the results (push: false), then once storing them (push: true).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intArg, readArgs } from './lib/args.js';
import { benchAuthEnv, benchAuthOf, benchAuthorization } from './lib/auth.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { datasetProposals, benchDatasetUrn } from './lib/dataset-aspects.js';
import { benchFamilyEnv, familyRunResources } from './lib/family-env.js';
import { removeRunResources } from './lib/run-resources.js';
import { datasetUrn } from './lib/fixtures.js';
import { JsonClient, percentile, report, runLoad, type LoadResult } from './lib/load.js';

const args = readArgs({
  part: 'all',
  family: 'embedded',
  auth: 'system',
  url: '',
  entities: '10000',
  'run-aspects': '100000',
  c: '16',
  timeout: '600',
});
if (!['delete', 'rollback', 'tests', 'all'].includes(args.part))
  throw new Error('--part is delete, rollback, tests or all');
if (args.family !== 'embedded' && args.family !== 'distributed')
  throw new Error('--family is embedded or distributed');
const auth = benchAuthOf(args.auth);
const entities = intArg(args.entities, 'entities');
const runAspects = intArg(args['run-aspects'], 'run-aspects');
const c = intArg(args.c, 'c');
const timeoutMs = intArg(args.timeout, 'timeout') * 1000;
const run = Date.now().toString(36);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Proposals per ingestProposalBatch call while seeding. */
const SEED_BATCH = 100;
/** Urns per batchEvaluate call (the endpoint's maximum). */
const EVALUATE_BATCH = 100;
const ASPECTS_PER_RUN_ENTITY = 5;

const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const perSecond = (items: number, ms: number) => Math.round((items / ms) * 1000);

const env = { ...benchFamilyEnv(args.family, `bo${run}`, repoRoot), ...benchAuthEnv(auth) };
const catalog = args.url ? undefined : await startCatalogProcess(env);
const baseUrl = args.url || catalog!.baseUrl;
const authorization = await benchAuthorization(auth, baseUrl);
const client = new JsonClient(baseUrl, c, authorization);

/** The value of a Rest.li response (`{value: …}`). */
async function action<T>(path: string, body: unknown): Promise<T> {
  return (JSON.parse(await client.expectOk('POST', path, body)) as { value: T }).value;
}

/** A dataset of this run tagged `tag`: properties (with the tag), tags, and an owner every other one. */
function seedProposals(i: number, tag: string): Record<string, unknown>[] {
  const urn = datasetUrn(i, tag);
  const aspect = (aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  });
  const out = [
    aspect('datasetProperties', {
      name: `table_${i}`,
      ...(i % 4 === 0 ? {} : { description: `Table ${i} holds the daily facts of business line ${i % 17}.` }),
      customProperties: { bench_tag: tag, tier: i % 3 === 0 ? 'gold' : 'silver' },
    }),
    aspect('globalTags', { tags: [{ tag: i % 3 === 0 ? 'urn:li:tag:gold' : 'urn:li:tag:silver' }] }),
  ];
  if (i % 2 === 0)
    out.push(
      aspect('ownership', { owners: [{ owner: `urn:li:corpuser:user${i % 40}`, type: 'DATAOWNER' }] }),
    );
  return out;
}

/** Seeds N tagged datasets; returns the time taken (ms) and the number of aspects written. */
async function seed(n: number, tag: string): Promise<{ ms: number; aspects: number }> {
  const all: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) all.push(...seedProposals(i, tag));
  const t0 = performance.now();
  const result = await runLoad(Math.ceil(all.length / SEED_BATCH), c, (b) =>
    client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
      proposals: all.slice(b * SEED_BATCH, (b + 1) * SEED_BATCH),
      async: 'false',
    }),
  );
  if (result.errors > 0) throw new Error(`seeding: ${result.errors} batches failed`);
  return { ms: performance.now() - t0, aspects: all.length };
}

/** How many datasets tagged `tag` search finds. */
async function searchTotal(tag: string): Promise<number> {
  const value = await action<{ numEntities: number }>('/entities?action=search', {
    entity: 'dataset',
    input: '*',
    start: 0,
    count: 0,
    filter: {
      or: [{ and: [{ field: 'customProperties', values: [`bench_tag=${tag}`], condition: 'EQUAL' }] }],
    },
  });
  return value.numEntities;
}

/** Polls search until `done(total)`; returns the time it took (ms) from `from` (a performance.now()). */
async function waitForSearch(tag: string, done: (total: number) => boolean, what: string): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const total = await searchTotal(tag);
    if (done(total)) return performance.now();
    if (Date.now() > deadline)
      throw new Error(`${what}: search total still ${total} after ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

function latencyRow(label: string, result: LoadResult, itemsPerOp = 1): Record<string, string | number> {
  return report(label, result, itemsPerOp);
}

// ---------------------------------------------------------------------------------------------------
// Part a: hard delete of N entities.

async function hardDelete(): Promise<void> {
  const tag = `del${run}`;
  const seeded = await seed(entities, tag);
  const seededAt = performance.now();
  const searchable = await waitForSearch(tag, (t) => t >= entities, 'seed');
  console.table([
    {
      scenario: `seed ${entities} datasets (${seeded.aspects} aspects, ${SEED_BATCH}/batch, c=${c})`,
      'aspects/s': perSecond(seeded.aspects, seeded.ms),
      s: round(seeded.ms / 1000),
      'searchable after writes ms': Math.round(searchable - seededAt),
    },
  ]);

  const firstDelete = performance.now();
  const rows: number[] = [];
  const result = await runLoad(entities, c, async (i) => {
    const value = await action<{ rows?: number }>('/entities?action=delete', { urn: datasetUrn(i, tag) });
    rows.push(value.rows ?? 0);
  });
  const lastDelete = performance.now();
  const clean = await waitForSearch(tag, (t) => t === 0, 'search clean');
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  console.table([
    {
      scenario: `hard delete (POST /entities?action=delete), c=${c}`,
      entities,
      errors: result.errors,
      'entities/s': perSecond(entities, result.durationMs),
      'p50 ms': round(percentile(sorted, 50), 2),
      'p99 ms': round(percentile(sorted, 99), 2),
      'rows deleted': rows.reduce((a, b) => a + b, 0),
      'search clean after first delete ms': Math.round(clean - firstDelete),
      'search clean after last delete ms': Math.round(clean - lastDelete),
    },
  ]);
  if (result.errors > 0) process.exitCode = 1;
}

// ---------------------------------------------------------------------------------------------------
// Part b: rollback of a run of M aspects.

interface RollbackValue {
  readonly entitiesAffected: number;
  readonly aspectsAffected?: number;
  readonly entitiesDeleted: number;
  readonly aspectsReverted: number;
  readonly unsafeEntitiesCount: number;
}

async function rollback(): Promise<void> {
  const runId = `bench-rollback-${run}`;
  const tag = `rb${run}`;
  const datasets = Math.ceil(runAspects / ASPECTS_PER_RUN_ENTITY);
  const batchEntities = Math.max(1, Math.floor(SEED_BATCH / ASPECTS_PER_RUN_ENTITY));
  const lastObserved = Date.now();
  const t0 = performance.now();
  const written = await runLoad(Math.ceil(datasets / batchEntities), c, (b) => {
    const proposals: Record<string, unknown>[] = [];
    for (let i = b * batchEntities; i < Math.min(datasets, (b + 1) * batchEntities); i++)
      for (const p of datasetProposals(i, tag).slice(0, ASPECTS_PER_RUN_ENTITY))
        proposals.push({ ...p, systemMetadata: { runId, lastObserved } });
    return client.expectOk('POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
  });
  const writeMs = performance.now() - t0;
  if (written.errors > 0) throw new Error(`writing the run: ${written.errors} batches failed`);
  const aspects = datasets * ASPECTS_PER_RUN_ENTITY;

  const listed = async () =>
    (
      await action<{ runId: string; rows: number }[]>('/runs?action=list', {
        pageOffset: 0,
        pageSize: 10_000,
      })
    ).find((r) => r.runId === runId);
  const before = await listed();

  const timedRollback = async (body: Record<string, unknown>) => {
    const start = performance.now();
    const value = await action<RollbackValue>('/runs?action=rollback', { runId, ...body });
    return { value, ms: performance.now() - start };
  };
  const dry = await timedRollback({ dryRun: true });
  const real = await timedRollback({ dryRun: false, safe: true });
  const after = await listed();
  // A check that the entities are gone from reads too: the first one's aspects.
  const probe = await client.send('GET', `/entitiesV2/${encodeURIComponent(benchDatasetUrn(0, tag))}`);

  console.table([
    {
      scenario: `write the run (${ASPECTS_PER_RUN_ENTITY} aspects x ${datasets} datasets, ${SEED_BATCH}/batch, c=${c})`,
      'aspects/s': perSecond(aspects, writeMs),
      s: round(writeMs / 1000),
      'run rows listed': before?.rows ?? 0,
    },
  ]);
  console.table([
    {
      scenario: 'rollback dryRun: true',
      s: round(dry.ms / 1000, 2),
      entitiesAffected: dry.value.entitiesAffected,
      aspectsReverted: dry.value.aspectsReverted,
      'aspects/s': perSecond(dry.value.aspectsReverted, dry.ms),
    },
    {
      scenario: 'rollback dryRun: false, safe: true',
      s: round(real.ms / 1000, 2),
      entitiesAffected: real.value.entitiesAffected,
      aspectsReverted: real.value.aspectsReverted,
      'aspects/s': perSecond(real.value.aspectsReverted, real.ms),
      entitiesDeleted: real.value.entitiesDeleted,
      unsafeEntities: real.value.unsafeEntitiesCount,
    },
  ]);
  // A safe (soft) rollback keeps each entity's key row, marked removed, as the ecosystem does: the run
  // stays listed with those rows (the run index does not know soft deletes), while describe, which
  // skips soft-deleted entities, shows none.
  const live = await action<unknown[]>('/runs?action=describe', { runId, start: 0, count: 100 });
  const gone = after === undefined || after.rows === 0 || (after.rows <= datasets && live.length === 0);
  console.table([
    {
      check: 'the run after the rollback',
      'list: run listed': after === undefined ? 'no' : `yes, ${after.rows} rows (${datasets} entities)`,
      'describe: live rows': live.length,
      'GET /entitiesV2 of a rolled-back dataset': probe.status,
      ok: gone ? 'yes' : 'NO',
    },
  ]);
  if (!gone || real.value.aspectsReverted < aspects) {
    console.error(
      `\n*** MISMATCH: ${real.value.aspectsReverted} aspects reverted for ${aspects} written; ` +
        `run ${gone ? 'gone' : `still listed with ${after?.rows} rows, ${live.length} live`} ***\n`,
    );
    process.exitCode = 1;
  }
}

// ---------------------------------------------------------------------------------------------------
// Part c: metadata-test evaluation.

const TEST_DEFINITION = JSON.stringify({
  on: {
    types: ['dataset'],
    conditions: { property: 'datasetProperties.name', operator: 'starts_with', values: ['table_'] },
  },
  rules: {
    and: [
      { property: 'datasetProperties.description', operator: 'exists' },
      { not: { property: 'globalTags.tags.tag', operator: 'equals', values: ['urn:li:tag:deprecated'] } },
      { property: 'ownership.owners.owner', operator: 'exists' },
    ],
  },
});

interface BatchResults {
  readonly results: Record<string, { passing: unknown[]; failing: unknown[] }>;
}

async function testEvaluation(): Promise<void> {
  const tag = `te${run}`;
  const created = JSON.parse(
    await client.expectOk('POST', '/api/graphql', {
      query: 'mutation($input: CreateTestInput!) { createTest(input: $input) }',
      variables: {
        input: {
          id: `bench_${run}`,
          name: 'Described and owned',
          category: 'Quality',
          definition: { json: TEST_DEFINITION },
        },
      },
    }),
  ) as { data?: { createTest?: string }; errors?: unknown };
  const testUrn = created.data?.createTest;
  if (testUrn === undefined) throw new Error(`createTest: ${JSON.stringify(created.errors)}`);
  const seeded = await seed(entities, tag);
  const calls = Math.ceil(entities / EVALUATE_BATCH);
  const urnsOf = (b: number) =>
    Array.from({ length: Math.min(EVALUATE_BATCH, entities - b * EVALUATE_BATCH) }, (_, j) =>
      datasetUrn(b * EVALUATE_BATCH + j, tag),
    );
  let passing = 0;
  let failing = 0;
  const evaluate = (push: boolean, count: boolean) => (b: number) =>
    action<BatchResults>('/gms/test?action=batchEvaluate', { urns: urnsOf(b), push }).then((value) => {
      if (!count) return;
      for (const r of Object.values(value.results)) {
        passing += r.passing.length;
        failing += r.failing.length;
      }
    });
  // Warm-up: a few calls, not counted.
  await runLoad(Math.min(calls, 5), Math.min(c, 5), evaluate(false, false));
  const dry = await runLoad(calls, c, evaluate(false, true));
  const pushed = await runLoad(calls, c, evaluate(true, false));
  // The results are stored: one entity's testResults.
  const stored = await client.send(
    'GET',
    `/aspects/${encodeURIComponent(datasetUrn(1, tag))}?aspect=testResults&version=0`,
  );
  const row = (label: string, result: LoadResult) => ({
    ...latencyRow(label, result, EVALUATE_BATCH),
    'entities/s': perSecond(entities, result.durationMs),
  });
  console.table([
    {
      scenario: `seed ${entities} datasets (${seeded.aspects} aspects)`,
      'aspects/s': perSecond(seeded.aspects, seeded.ms),
      s: round(seeded.ms / 1000),
    },
  ]);
  console.table([
    { ...row(`batchEvaluate push: false, ${EVALUATE_BATCH}/call, c=${c}`, dry), passing, failing },
    {
      ...row(`batchEvaluate push: true, ${EVALUATE_BATCH}/call, c=${c}`, pushed),
      'testResults stored': stored.status === 200 ? 'yes' : `HTTP ${stored.status}`,
    },
  ]);
  if (dry.errors > 0 || pushed.errors > 0 || passing + failing !== entities || stored.status !== 200) {
    console.error(
      `\n*** MISMATCH: ${passing + failing} results for ${entities} entities, ${dry.errors + pushed.errors} failed calls, testResults HTTP ${stored.status} ***\n`,
    );
    process.exitCode = 1;
  }
}

try {
  console.log(
    `operations bench: family ${args.family}, entities ${entities}, run aspects ${runAspects}, c=${c}, ${baseUrl}`,
  );
  if (args.part === 'delete' || args.part === 'all') await hardDelete();
  if (args.part === 'rollback' || args.part === 'all') await rollback();
  if (args.part === 'tests' || args.part === 'all') await testEvaluation();
} finally {
  client.close();
  await catalog?.stop();
  const resources = familyRunResources(env);
  if (resources && !args.url) await removeRunResources(resources);
}
