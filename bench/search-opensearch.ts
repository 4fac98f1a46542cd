import { randomBytes } from 'node:crypto';
import { entityRegistry } from '@catalog/model';
import { buildEntityDocument, indexSpecFor, openOpenSearch, type EntityDocument } from '@catalog/search';

/**
 * OpenSearch search at scale, the same workload as search-embedded.ts: bulk upsert of N realistic
 * dataset documents (built from aspects by buildEntityDocument), then latency of full-text, filtered,
 * aggregated searches, browse and autocomplete. Uses a fresh index prefix and drops it afterwards.
 * Run: OPENSEARCH_URL=http://127.0.0.1:9200 pnpm exec tsx --conditions=source bench/search-opensearch.ts [N=100000] [writers=1]
 */
const total = Number(process.argv[2] ?? 100_000);
const writers = Number(process.argv[3] ?? 1);
const BATCH = 1_000;
const RUNS = 300;
const node = process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200';

let seed = 42;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const WORDS = [
  'customer',
  'orders',
  'payments',
  'invoice',
  'revenue',
  'daily',
  'monthly',
  'events',
  'clicks',
  'sessions',
  'users',
  'accounts',
  'ledger',
  'inventory',
  'shipments',
  'returns',
  'marketing',
  'campaign',
  'leads',
  'churn',
  'forecast',
  'pricing',
  'product',
  'catalog',
  'stock',
  'warehouse',
  'supplier',
  'vendor',
  'refunds',
  'tax',
  'region',
  'country',
  'store',
  'employee',
  'payroll',
  'budget',
  'audit',
  'risk',
  'fraud',
  'score',
] as const;
const PLATFORMS = ['hive', 'snowflake', 'bigquery', 'kafka', 'postgres', 'mysql', 's3', 'redshift'] as const;
const ORIGINS = ['PROD', 'PROD', 'PROD', 'DEV', 'STG'] as const;
const TAGS = Array.from({ length: 50 }, (_, i) => `urn:li:tag:tag${i}`);
const OWNERS = Array.from({ length: 200 }, (_, i) => `urn:li:corpuser:user${i}`);
const DBS = Array.from({ length: 30 }, (_, i) => `db${i}`);

const dataset = entityRegistry.requireEntity('dataset');
function datasetDocument(i: number): EntityDocument {
  const platform = pick(PLATFORMS);
  const origin = pick(ORIGINS);
  const db = pick(DBS);
  const name = `${pick(WORDS)}_${pick(WORDS)}_${i}`;
  const urn = `urn:li:dataset:(urn:li:dataPlatform:${platform},${db}.${name},${origin})`;
  const aspects = new Map<string, Record<string, unknown>>([
    [
      'datasetProperties',
      {
        name,
        description: Array.from({ length: 12 }, () => pick(WORDS)).join(' '),
        customProperties: { team: `team${i % 20}`, tier: pick(['gold', 'silver', 'bronze']) },
        created: { time: 1_600_000_000_000 + i * 1000 },
      },
    ],
    ['globalTags', { tags: Array.from({ length: 1 + (i % 3) }, () => ({ tag: pick(TAGS) })) }],
    [
      'ownership',
      { owners: Array.from({ length: 1 + (i % 2) }, () => ({ owner: pick(OWNERS), type: 'DATAOWNER' })) },
    ],
    [
      'schemaMetadata',
      {
        fields: Array.from({ length: 20 }, (_, f) => ({
          fieldPath: `${pick(WORDS)}_${f}`,
          description: pick(WORDS),
        })),
      },
    ],
    ['browsePaths', { paths: [`/${origin.toLowerCase()}/${platform}/${db}/${name}`] }],
    ['status', { removed: i % 100 === 0 }],
  ]);
  return buildEntityDocument(dataset, urn, aspects);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(2).padStart(7)} ms`,
  );
}

const prefix = `bench_${randomBytes(4).toString('hex')}`;
const { search, close } = await openOpenSearch({ node, indexPrefix: prefix, replicas: 0 });
try {
  await search.ensureIndex(indexSpecFor(dataset));
  const batches: EntityDocument[][] = [];
  const builtAt = performance.now();
  for (let start = 0; start < total; start += BATCH) {
    batches.push(
      Array.from({ length: Math.min(BATCH, total - start) }, (_, k) => datasetDocument(start + k)),
    );
  }
  const buildMs = performance.now() - builtAt;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < batches.length) {
        const batch = batches[next++];
        if (batch !== undefined) await search.upsert(batch);
      }
    }),
  );
  const writeMs = performance.now() - started;
  const t0 = performance.now();
  await search.refresh();
  const refreshMs = performance.now() - t0;
  console.log(
    `documents                          ${total} (${writers} concurrent writer(s), ${BATCH} per bulk)`,
  );
  console.log(`bulk upsert (write only)           ${Math.round(total / (writeMs / 1000))} docs/s`);
  console.log(
    `bulk upsert (build + write)        ${Math.round(total / ((writeMs + buildMs) / 1000))} docs/s`,
  );
  console.log(`refresh after load                 ${refreshMs.toFixed(0)} ms`);
  const stats = await fetch(`${node}/${prefix}_datasetindex_v2/_stats/store,docs`).then(
    (r) => r.json() as Promise<{ _all: { primaries: { store: { size_in_bytes: number } } } }>,
  );
  console.log(
    `index size (primaries)             ${(stats._all.primaries.store.size_in_bytes / 1e6).toFixed(0)} MB`,
  );

  const base = { entityTypes: ['dataset'], start: 0, count: 10 } as const;
  const facets = ['platform', 'origin', 'tags', 'owners'];
  await measure('full text, 1 word', () => search.search({ ...base, input: pick(WORDS) }));
  await measure('full text, 2 words', () =>
    search.search({ ...base, input: `${pick(WORDS)} ${pick(WORDS)}` }),
  );
  await measure('full text, prefix', () => search.search({ ...base, input: pick(WORDS).slice(0, 4) }));
  await measure('filtered (*, platform + tag)', () =>
    search.search({
      ...base,
      input: '*',
      filter: {
        or: [
          {
            and: [
              { field: 'platform', values: [`urn:li:dataPlatform:${pick(PLATFORMS)}`], condition: 'EQUAL' },
              { field: 'tags', values: [pick(TAGS)], condition: 'EQUAL' },
            ],
          },
        ],
      },
    }),
  );
  await measure('aggregated (*, 4 facets)', () => search.search({ ...base, input: '*', facets }));
  await measure('text + filter + 4 facets', () =>
    search.search({
      ...base,
      input: pick(WORDS),
      facets,
      filter: { or: [{ and: [{ field: 'origin', values: ['PROD'], condition: 'EQUAL' }] }] },
    }),
  );
  await measure('browse /prod/<platform>', () =>
    search.browse({ entityType: 'dataset', path: `/prod/${pick(PLATFORMS)}`, start: 0, limit: 10 }),
  );
  await measure('browse /prod/<platform>/<db>', () =>
    search.browse({
      entityType: 'dataset',
      path: `/prod/${pick(PLATFORMS)}/${pick(DBS)}`,
      start: 0,
      limit: 10,
    }),
  );
  await measure('browse root', () =>
    search.browse({ entityType: 'dataset', path: '/', start: 0, limit: 10 }),
  );
  await measure('autocomplete (3-letter prefix)', () =>
    search.autocomplete({ entityType: 'dataset', query: pick(WORDS).slice(0, 3), limit: 10 }),
  );
} finally {
  await fetch(`${node}/${prefix}_*`, { method: 'DELETE' });
  await close();
}
