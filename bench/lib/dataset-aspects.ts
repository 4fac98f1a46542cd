/** Realistic dataset metadata, deterministic per index, as the proposals an ingestion run sends. */
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
  'finance',
  'risk',
  'fraud',
  'product',
  'catalog',
  'pricing',
  'support',
  'tickets',
  'churn',
  'forecast',
  'warehouse',
  'supplier',
];
const PLATFORMS = ['snowflake', 'bigquery', 'postgres', 'hive', 'kafka', 's3'];
const TAGS = ['pii', 'gold', 'silver', 'deprecated', 'finance', 'marketing', 'core', 'sensitive'];
const OWNERS = Array.from({ length: 40 }, (_, i) => `urn:li:corpuser:user${i}`);

function word(i: number, k: number): string {
  return WORDS[(i * 7 + k * 13 + ((i >> 3) % 11)) % WORDS.length]!;
}

export function benchDatasetUrn(i: number, run: string): string {
  const platform = PLATFORMS[i % PLATFORMS.length]!;
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${run}_db${i % 40}.${word(i, 1)}_${word(i, 2)}_${i},PROD)`;
}

function aspect(urn: string, aspectName: string, value: unknown): Record<string, unknown> {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  };
}

/** Five aspects per dataset: properties, schema (20 fields), tags, owners, browse paths. */
export function datasetProposals(i: number, run: string): Record<string, unknown>[] {
  const urn = benchDatasetUrn(i, run);
  const platform = PLATFORMS[i % PLATFORMS.length]!;
  const name = `${word(i, 1)}_${word(i, 2)}_${i}`;
  return [
    aspect(urn, 'datasetProperties', {
      name,
      description: `The ${word(i, 3)} ${word(i, 4)} of every ${word(i, 5)}, joined with ${word(i, 6)} and refreshed ${word(i, 7)}.`,
      customProperties: { team: `team_${i % 12}`, tier: i % 3 === 0 ? 'gold' : 'silver' },
      created: { time: 1_600_000_000_000 + i * 60_000 },
    }),
    aspect(urn, 'schemaMetadata', {
      schemaName: name,
      platform: `urn:li:dataPlatform:${platform}`,
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: Array.from({ length: 20 }, (_, f) => ({
        fieldPath: `${word(i + f, 8)}_${f}`,
        nativeDataType: f % 2 ? 'varchar' : 'bigint',
        type: { type: { [f % 2 ? 'com.linkedin.schema.StringType' : 'com.linkedin.schema.NumberType']: {} } },
        description: `${word(i + f, 9)} of the row`,
      })),
    }),
    aspect(urn, 'globalTags', {
      tags: [
        { tag: `urn:li:tag:${TAGS[i % TAGS.length]}` },
        { tag: `urn:li:tag:${TAGS[(i >> 2) % TAGS.length]}` },
      ],
    }),
    aspect(urn, 'ownership', { owners: [{ owner: OWNERS[i % OWNERS.length]!, type: 'DATAOWNER' }] }),
    aspect(urn, 'browsePaths', { paths: [`/prod/${platform}/${run}_db${i % 40}/${name}`] }),
  ];
}

export const SEARCH_WORDS = WORDS;
export const BENCH_PLATFORMS = PLATFORMS;
export const BENCH_TAGS = TAGS;
