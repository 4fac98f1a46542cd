import { entityRegistry } from '@catalog/model';
import { buildEntityDocument, type EntityDocument } from '@catalog/search';
import { percentile } from './load.js';

/**
 * The workload of the search-adapter benchmarks (search-embedded.ts, search-opensearch.ts): a seeded
 * random sequence, so every run builds the same documents, and a dataset document generator whose words
 * come from the picker each benchmark chooses.
 */
let seed = 42;
export const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
export const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

export const WORDS = [
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
export const VOCAB = [
  ...WORDS,
  ...Array.from({ length: 3_000 }, (_, i) =>
    [i % 15, Math.floor(i / 15) % 15, Math.floor(i / 225) % 15].map((k) => SYLLABLES[k]).join(''),
  ),
];
export const zipf = (): string => VOCAB[Math.floor(VOCAB.length * random() ** 2)] as string;
export const domainWord = (): string => pick(WORDS);
export const PLATFORMS = [
  'hive',
  'snowflake',
  'bigquery',
  'kafka',
  'postgres',
  'mysql',
  's3',
  'redshift',
] as const;
const ORIGINS = ['PROD', 'PROD', 'PROD', 'DEV', 'STG'] as const;
export const TAGS = Array.from({ length: 50 }, (_, i) => `urn:li:tag:tag${i}`);
const OWNERS = Array.from({ length: 200 }, (_, i) => `urn:li:corpuser:user${i}`);
export const DBS = Array.from({ length: 30 }, (_, i) => `db${i}`);

const dataset = entityRegistry.requireEntity('dataset');

/** Dataset `i` built from its aspects, with names, descriptions and column names drawn by `word`. */
export function datasetDocument(i: number, word: () => string): EntityDocument {
  const platform = pick(PLATFORMS);
  const origin = pick(ORIGINS);
  const db = pick(DBS);
  const name = `${word()}_${word()}_${i}`;
  const urn = `urn:li:dataset:(urn:li:dataPlatform:${platform},${db}.${name},${origin})`;
  const aspects = new Map<string, Record<string, unknown>>([
    [
      'datasetProperties',
      {
        name,
        description: Array.from({ length: 12 }, () => word()).join(' '),
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
        fields: Array.from({ length: 20 }, (_, f) => ({ fieldPath: `${word()}_${f}`, description: word() })),
      },
    ],
    ['browsePaths', { paths: [`/${origin.toLowerCase()}/${platform}/${db}/${name}`] }],
    ['status', { removed: i % 100 === 0 }],
  ]);
  return buildEntityDocument(dataset, urn, aspects);
}

/** Runs `run` 20 times to warm up, then `runs` times, and prints p50 and p99. */
export async function measure(label: string, run: () => Promise<unknown>, runs: number): Promise<void> {
  for (let i = 0; i < 20; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(2).padStart(7)} ms`,
  );
}
