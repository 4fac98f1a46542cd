/**
 * Structured properties at scale, through the whole pipeline: creates 5 property definitions, loads N
 * datasets that each assign all 5 (plus their datasetProperties) over HTTP, measures the store and
 * indexing throughput (until the indexer's lag is zero and every value is searchable), GraphQL
 * searchAcrossEntities latency with structured-property filters (EQUAL, GREATER_THAN, EXISTS) and
 * aggregateAcrossEntities latency over structured-property facets, then the hard-delete cleanup of one
 * property (values removed per second, time until its mapping may be dropped).
 *   pnpm bench:structured-properties [--n 100000] [--family embedded|distributed] [--queries 300]
 * `distributed` uses KAFKA_BOOTSTRAP_SERVER, MONGODB_URI and OPENSEARCH_URL (pnpm infra:up, then
 * `set -a; . /tmp/catalog-infra/env; set +a`) with a fresh database, index prefix and topic set.
 * Every answer is checked against the counts the generator implies: a query that errors or returns an
 * implausible result fails the run instead of being timed. The clean-up is followed through
 * GET /openapi/operations/structuredProperties/cleanup, polled every 500 ms.
 */
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intArg, readArgs } from './lib/args.js';
import { benchFamilyEnv, familyRunResources } from './lib/family-env.js';
import { removeRunResources } from './lib/run-resources.js';
import { totalLag } from './lib/pipeline-lag.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { benchDatasetUrn } from './lib/dataset-aspects.js';
import { JsonClient, percentile, runLoad, type LoadResult } from './lib/load.js';

const args = readArgs({ n: '100000', family: 'embedded', queries: '300' });
const n = intArg(args.n, 'n');
const queries = intArg(args.queries, 'queries');
const run = `b${randomBytes(3).toString('hex')}`;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---- The generator: 5 properties, deterministic values per dataset index ----

const TIERS = ['platinum', 'gold', 'silver', 'bronze', 'tin'] as const;
/** More distinct values than the aggregation's maxAggValues (20), so the facet is truncated. */
const RETENTIONS = [
  1, 3, 7, 14, 30, 45, 60, 90, 120, 180, 270, 365, 400, 540, 730, 1095, 1825, 2555, 3650, 7300, 10950, 36500,
] as const;
const MAX_AGG_VALUES = 20;
const DAY_MS = 86_400_000;
const FIRST_REVIEW = Date.UTC(2020, 0, 1);

interface PropertySpec {
  readonly id: string;
  readonly valueType: 'string' | 'number' | 'date' | 'urn' | 'rich_text';
  readonly cardinality: 'SINGLE' | 'MULTIPLE';
  readonly allowedValues?: readonly ({ string: string } | { double: number })[];
}

const PROPERTIES = {
  tier: {
    id: 'bench.tier',
    valueType: 'string',
    cardinality: 'SINGLE',
    allowedValues: TIERS.map((t) => ({ string: t })),
  },
  retentionDays: { id: 'bench.retentionDays', valueType: 'number', cardinality: 'SINGLE' },
  reviewedOn: { id: 'bench.reviewedOn', valueType: 'date', cardinality: 'SINGLE' },
  owners: { id: 'bench.owners', valueType: 'string', cardinality: 'MULTIPLE' },
  score: { id: 'bench.score', valueType: 'number', cardinality: 'MULTIPLE' },
} as const satisfies Record<string, PropertySpec>;

const propertyUrn = (p: PropertySpec) => `urn:li:structuredProperty:${p.id}`;
const field = (p: PropertySpec) => `structuredProperties.${p.id}`;

function hash(i: number, salt: number): number {
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}

const tierOf = (i: number) => i % TIERS.length;
const retentionOf = (i: number) => RETENTIONS[hash(i, 1) % RETENTIONS.length]!;

function proposal(entityType: string, urn: string, aspectName: string, value: unknown) {
  return {
    entityType,
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  };
}

function definitionProposal(p: PropertySpec) {
  return proposal('structuredProperty', propertyUrn(p), 'propertyDefinition', {
    qualifiedName: p.id,
    displayName: p.id,
    valueType: `urn:li:dataType:datahub.${p.valueType}`,
    cardinality: p.cardinality,
    entityTypes: ['urn:li:entityType:datahub.dataset'],
    ...(p.allowedValues ? { allowedValues: p.allowedValues.map((value) => ({ value })) } : {}),
  });
}

/** Two proposals per dataset: structuredProperties (all 5 properties) and datasetProperties. */
function datasetProposals(i: number) {
  const urn = benchDatasetUrn(i, run);
  const assign = (p: PropertySpec, values: ({ string: string } | { double: number })[]) => ({
    propertyUrn: propertyUrn(p),
    values,
  });
  const h = hash(i, 2);
  return [
    proposal('dataset', urn, 'structuredProperties', {
      properties: [
        assign(PROPERTIES.tier, [{ string: TIERS[tierOf(i)]! }]),
        assign(PROPERTIES.retentionDays, [{ double: retentionOf(i) }]),
        assign(PROPERTIES.reviewedOn, [
          { string: new Date(FIRST_REVIEW + (i % 1500) * DAY_MS).toISOString().slice(0, 10) },
        ]),
        assign(PROPERTIES.owners, [{ string: `team_${i % 12}` }, { string: `steward_${i % 40}` }]),
        assign(PROPERTIES.score, [{ double: h % 100 }, { double: ((h >>> 8) % 100) + 0.5 }]),
      ],
    }),
    proposal('dataset', urn, 'datasetProperties', {
      name: `sp_${run}_${i}`,
      description: `Dataset ${i} of the structured-properties bench, tier ${TIERS[tierOf(i)]}.`,
      customProperties: { team: `team_${i % 12}` },
    }),
  ];
}

// ---- Expected answers, from the generator ----

const tierCounts = TIERS.map((_, k) => Math.floor(n / TIERS.length) + (k < n % TIERS.length ? 1 : 0));
const retentionCounts = new Map<number, number>();
const countsByTierAndRetention = TIERS.map(() => new Map<number, number>());
for (let i = 0; i < n; i++) {
  const r = retentionOf(i);
  retentionCounts.set(r, (retentionCounts.get(r) ?? 0) + 1);
  const byTier = countsByTierAndRetention[tierOf(i)]!;
  byTier.set(r, (byTier.get(r) ?? 0) + 1);
}
/** Datasets of a tier whose retention is greater than a threshold. */
function expectedFiltered(tier: number, threshold: number): number {
  let total = 0;
  for (const [r, count] of countsByTierAndRetention[tier]!) if (r > threshold) total += count;
  return total;
}

// ---- Plumbing ----

const env = benchFamilyEnv(args.family!, run, repoRoot);
const rows: Record<string, string | number>[] = [];
const row = (scenario: string, fields: Record<string, string | number>) => {
  rows.push({ scenario, ...fields });
  console.log(JSON.stringify({ scenario, ...fields }));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A request that has not answered within `ms` fails the bench (JsonClient has no timeout). */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));
const seconds = (ms: number) => +(ms / 1000).toFixed(2);

async function graphql<T>(client: JsonClient, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await client.send('POST', '/api/graphql', { query, variables });
  if (res.status !== 200) throw new Error(`GraphQL: HTTP ${res.status} ${res.body.slice(0, 500)}`);
  const body = JSON.parse(res.body) as { data?: T | null; errors?: unknown[] };
  if (body.errors !== undefined && body.errors.length > 0)
    throw new Error(`GraphQL errors: ${JSON.stringify(body.errors).slice(0, 500)}`);
  if (body.data === undefined || body.data === null) throw new Error('GraphQL: no data');
  return body.data;
}

interface Facet {
  field: string;
  aggregations: { value: string; count: number }[];
}

const SEARCH = `query ($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total count searchResults { entity { urn } } }
}`;
const AGGREGATE = `query ($input: AggregateAcrossEntitiesInput!) {
  aggregateAcrossEntities(input: $input) { facets { field aggregations { value count } } }
}`;

type Criterion = { field: string; condition: string; values?: string[] };

async function searchTotal(client: JsonClient, and: Criterion[], count = 0): Promise<number> {
  const data = await graphql<{ searchAcrossEntities: { total: number } | null }>(client, SEARCH, {
    input: { types: ['DATASET'], query: '*', start: 0, count, orFilters: [{ and }] },
  });
  if (data.searchAcrossEntities === null) throw new Error('searchAcrossEntities answered null');
  return data.searchAcrossEntities.total;
}

/** Times `queries` operations one at a time; any failed operation fails the bench. */
async function latency(label: string, op: (i: number) => Promise<void>): Promise<void> {
  const result: LoadResult = await runLoad(queries, 1, op);
  if (result.errors > 0) throw new Error(`${label}: ${result.errors} of ${queries} queries failed`);
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  row(label, {
    count: queries,
    'per s': rate(queries, result.durationMs),
    'p50 ms': +percentile(sorted, 50).toFixed(2),
    'p99 ms': +percentile(sorted, 99).toFixed(2),
  });
}

// ---- The scenario ----

// The catalog logs at LOG_LEVEL when it is set (warn otherwise).
const catalog = await startCatalogProcess({ ...env, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' });
const client = new JsonClient(catalog.baseUrl, 8);
try {
  // 1. Definitions, then N datasets assigning all 5 properties.
  await client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
    proposals: Object.values(PROPERTIES).map(definitionProposal),
    async: 'false',
  });

  const batch = 100; // proposals per request: 50 datasets
  const perBatch = batch / 2;
  const started = performance.now();
  const load = await runLoad(Math.ceil(n / perBatch), 4, (b) =>
    client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
      proposals: Array.from({ length: Math.min(perBatch, n - b * perBatch) }, (_, j) =>
        datasetProposals(b * perBatch + j),
      ).flat(),
      async: 'false',
    }),
  );
  if (load.errors > 0) throw new Error(`ingest: ${load.errors} batches failed`);
  const stored = performance.now();
  row('ingest (ingestProposalBatch, 100 proposals/request, c=4): datasets', {
    count: n,
    'per s': rate(n, stored - started),
    s: seconds(stored - started),
    'proposals/s': rate(n * 2, stored - started),
  });

  // Indexed: the indexer has no lag, and every dataset is found by each of its 5 properties.
  const everyProperty = Object.values(PROPERTIES).map((p): Criterion => ({
    field: field(p),
    condition: 'EXISTS',
  }));
  const deadline = Date.now() + 60 * 60_000;
  while ((await totalLag(client)) > 0) {
    if (Date.now() > deadline) throw new Error('the indexer did not catch up within an hour');
    await sleep(200);
  }
  for (;;) {
    const total = await searchTotal(client, everyProperty);
    if (total === n) break;
    if (total > n) throw new Error(`${total} datasets have all 5 properties; ${n} were written`);
    if (Date.now() > deadline) throw new Error(`only ${total} of ${n} datasets searchable by all 5`);
    await sleep(200);
  }
  const indexed = performance.now();
  row('indexing (write start → lag 0 and all searchable): datasets', {
    count: n,
    'per s': rate(n, indexed - started),
    s: seconds(indexed - started),
    'values/s': rate(n * 7, indexed - started),
  });

  // 2. Filtered search and aggregation, every answer checked against the generator.
  await latency('search: tier EQUAL + retentionDays GREATER_THAN + reviewedOn EXISTS', async (q) => {
    const tier = q % TIERS.length;
    const threshold = RETENTIONS[(q * 7) % (RETENTIONS.length - 4)]!;
    const total = await searchTotal(
      client,
      [
        { field: field(PROPERTIES.tier), condition: 'EQUAL', values: [TIERS[tier]!] },
        {
          field: field(PROPERTIES.retentionDays),
          condition: 'GREATER_THAN',
          values: [String(threshold)],
        },
        { field: field(PROPERTIES.reviewedOn), condition: 'EXISTS' },
      ],
      10,
    );
    const expected = expectedFiltered(tier, threshold);
    if (total !== expected || total === 0)
      throw new Error(`tier=${TIERS[tier]} retention>${threshold}: total ${total}, expected ${expected}`);
  });

  const facetFields = [field(PROPERTIES.tier), field(PROPERTIES.retentionDays)];
  const sameField = (a: string, b: string) => a.replace(/\./g, '_') === b.replace(/\./g, '_');
  const retentionBuckets = Math.min(MAX_AGG_VALUES, retentionCounts.size);
  await latency('aggregate: facets tier + retentionDays (maxAggValues 20)', async () => {
    const data = await graphql<{ aggregateAcrossEntities: { facets: Facet[] | null } | null }>(
      client,
      AGGREGATE,
      {
        input: {
          types: ['DATASET'],
          query: '*',
          facets: facetFields,
          searchFlags: { maxAggValues: MAX_AGG_VALUES },
        },
      },
    );
    const facets = data.aggregateAcrossEntities?.facets ?? [];
    const [tierFacet, retentionFacet] = facetFields.map((f) => {
      const facet = facets.find((x) => sameField(x.field, f));
      if (facet === undefined) throw new Error(`no facet ${f} in ${JSON.stringify(facets).slice(0, 300)}`);
      return facet;
    }) as [Facet, Facet];
    const tiers = new Map(tierFacet.aggregations.map((a) => [a.value, Number(a.count)]));
    TIERS.forEach((t, k) => {
      const want = tierCounts[k]!;
      if ((tiers.get(t) ?? 0) !== want) throw new Error(`facet tier=${t}: ${tiers.get(t)}, expected ${want}`);
    });
    if (retentionFacet.aggregations.length !== retentionBuckets)
      throw new Error(
        `facet retentionDays: ${retentionFacet.aggregations.length} buckets, expected ${retentionBuckets}`,
      );
    for (const a of retentionFacet.aggregations) {
      const want = retentionCounts.get(Number(a.value));
      if (want === undefined || Number(a.count) !== want || want === 0)
        throw new Error(`facet retentionDays=${a.value}: ${a.count}, expected ${want}`);
    }
  });

  // 3. Hard-delete cleanup of bench.owners: soft delete, hard delete, then follow the cleanup report.
  const owners = propertyUrn(PROPERTIES.owners);
  const cleanupPath = '/openapi/operations/structuredProperties/cleanup';
  await client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
    proposals: [proposal('structuredProperty', owners, 'status', { removed: true })],
    async: 'false',
  });
  const deleteStarted = performance.now();
  await client.expectOk('DELETE', `/openapi/v3/entity/structuredProperty/${encodeURIComponent(owners)}`);
  const deleted = performance.now();
  row('hard delete bench.owners (DELETE /openapi/v3/entity)', {
    count: 1,
    ms: +(deleted - deleteStarted).toFixed(2),
  });

  interface CleanupEntry {
    urn: string;
    qualifiedName: string;
    retiredAt?: number;
    valuesRemaining: number;
    documentsWithValues?: Record<string, number>;
    mappingCleanupReady: boolean;
  }
  /** The entry's counts, for the progress lines. */
  const brief = (entry: CleanupEntry) => ({
    urn: entry.urn,
    valuesRemaining: entry.valuesRemaining,
    documentsWithValues: Object.fromEntries(
      Object.entries(entry.documentsWithValues ?? {}).filter(([, count]) => count !== 0),
    ),
    mappingCleanupReady: entry.mappingCleanupReady,
  });
  let valuesDoneMs: number | undefined;
  let mappingReadyMs: number | undefined;
  let seen = false;
  let lastProgress = performance.now();
  for (;;) {
    const asked = performance.now();
    const res = await withTimeout(client.send('GET', cleanupPath), 120_000, `GET ${cleanupPath}`);
    const now = performance.now();
    if (res.status !== 200) throw new Error(`GET ${cleanupPath}: ${res.status} ${res.body.slice(0, 300)}`);
    const body = JSON.parse(res.body) as { properties?: CleanupEntry[] };
    if (!Array.isArray(body.properties))
      throw new Error(`GET ${cleanupPath}: no properties list: ${res.body.slice(0, 300)}`);
    const entry = body.properties.find((p) => p.urn === owners);
    if (entry === undefined) {
      // Once reported, a property that leaves the report has nothing left to clean up.
      if (seen) {
        valuesDoneMs ??= now - deleteStarted;
        mappingReadyMs ??= now - deleteStarted;
        break;
      }
      if (now - deleteStarted > 60_000)
        throw new Error(`${owners} not in the cleanup report 60 s after its hard delete: ${res.body}`);
    } else {
      if (!seen) console.log(JSON.stringify({ cleanup: 'first report', ...brief(entry) }));
      seen = true;
      if (entry.valuesRemaining < 0 || entry.valuesRemaining > n)
        throw new Error(`implausible valuesRemaining ${entry.valuesRemaining} (${n} datasets hold a value)`);
      if (entry.valuesRemaining === 0) valuesDoneMs ??= now - deleteStarted;
      if (entry.mappingCleanupReady) mappingReadyMs ??= now - deleteStarted;
      if (valuesDoneMs !== undefined && mappingReadyMs !== undefined) {
        console.log(JSON.stringify({ cleanup: 'done', ...brief(entry) }));
        break;
      }
      if (now - lastProgress > 10_000) {
        lastProgress = now;
        console.log(
          JSON.stringify({
            cleanup: 'progress',
            s: seconds(now - deleteStarted),
            'report ms': Math.round(now - asked),
            ...brief(entry),
          }),
        );
      }
    }
    if (now - deleteStarted > 60 * 60_000) throw new Error(`the cleanup of ${owners} did not finish`);
    await sleep(500);
  }
  row('cleanup bench.owners: values removed (hard delete → valuesRemaining 0)', {
    count: n,
    'per s': rate(n, valuesDoneMs!),
    s: seconds(valuesDoneMs!),
  });
  row('cleanup bench.owners: hard delete → mappingCleanupReady', { s: seconds(mappingReadyMs!) });
} catch (error) {
  // Said before the catalog is stopped, which can take a while.
  console.error(`bench failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
  throw error;
} finally {
  client.close();
  await catalog.stop();
  const resources = familyRunResources(env);
  if (resources) await removeRunResources(resources);
  console.table(rows);
}
