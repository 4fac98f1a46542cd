import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entityRegistry } from '@catalog/model';
import { buildEntityDocument, indexSpecFor, openEmbeddedSearch, type EntityDocument } from '@catalog/search';

/**
 * Embedded search at scale: bulk upsert of N realistic dataset documents (built from aspects by
 * buildEntityDocument), then latency of full-text, filtered, aggregated searches, browse and autocomplete.
 * Run: pnpm exec tsx --conditions=source bench/search-embedded.ts [N=100000]
 */
const total = Number(process.argv[2] ?? 100_000);
const BATCH = 1_000;
const RUNS = 300;

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
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'gu', 'be', 'fi', 'ho'];
/** 3,000 pseudo-words beside the 40 domain words: names and descriptions draw from both, Zipf-like. */
const VOCAB = [
  ...WORDS,
  ...Array.from({ length: 3_000 }, (_, i) =>
    [i % 15, Math.floor(i / 15) % 15, Math.floor(i / 225) % 15].map((k) => SYLLABLES[k]).join(''),
  ),
];
const zipf = (): string => VOCAB[Math.floor(VOCAB.length * random() ** 2)] as string;
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
  const name = `${zipf()}_${zipf()}_${i}`;
  const urn = `urn:li:dataset:(urn:li:dataPlatform:${platform},${db}.${name},${origin})`;
  const aspects = new Map<string, Record<string, unknown>>([
    [
      'datasetProperties',
      {
        name,
        description: Array.from({ length: 12 }, zipf).join(' '),
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
        fields: Array.from({ length: 20 }, (_, f) => ({ fieldPath: `${zipf()}_${f}`, description: zipf() })),
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

const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
const file = join(dir, 'search.sqlite');
const { search, close } = await openEmbeddedSearch({ file });
try {
  await search.ensureIndex(indexSpecFor(dataset));
  let built = 0;
  let writeMs = 0;
  const started = performance.now();
  for (let start = 0; start < total; start += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, total - start) }, (_, k) => datasetDocument(start + k));
    built += docs.length;
    const t0 = performance.now();
    await search.upsert(docs);
    writeMs += performance.now() - t0;
  }
  const elapsed = performance.now() - started;
  console.log(`documents                          ${built}`);
  console.log(`bulk upsert (write only)           ${Math.round(built / (writeMs / 1000))} docs/s`);
  console.log(`bulk upsert (build + write)        ${Math.round(built / (elapsed / 1000))} docs/s`);
  console.log(`file size                          ${(statSync(file).size / 1e6).toFixed(0)} MB (+WAL)`);

  const base = { entityTypes: ['dataset'], start: 0, count: 10 } as const;
  const facets = ['platform', 'origin', 'tags', 'owners'];
  await measure('full text, 1 word', () => search.search({ ...base, input: pick(VOCAB) }));
  await measure('full text, 2 words', () =>
    search.search({ ...base, input: `${pick(VOCAB)} ${pick(VOCAB)}` }),
  );
  await measure('full text, prefix', () => search.search({ ...base, input: pick(VOCAB).slice(0, 4) }));
  await measure('full text, common word (worst)', () => search.search({ ...base, input: pick(WORDS) }));
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
  await measure('aggregated (*, 4 facets, cached)', () => search.search({ ...base, input: '*', facets }));
  let extra = total;
  await measure('aggregated, after a 1-doc write', async () => {
    await search.upsert([datasetDocument(extra++)]);
    return search.search({ ...base, input: '*', facets });
  });
  await measure('text + filter + 4 facets', () =>
    search.search({
      ...base,
      input: pick(VOCAB),
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
    search.autocomplete({ entityType: 'dataset', query: pick(VOCAB).slice(0, 3), limit: 10 }),
  );
} finally {
  await close();
  if (process.env['KEEP'] === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(file);
}
