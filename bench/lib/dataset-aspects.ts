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

/**
 * Column names and their descriptions come from a larger vocabulary with a Zipf distribution, as they do
 * in real schemas: a few words (the `id` of real catalogs) are in nearly every dataset, most are rare.
 * With only the 30 business words above, every word would be in nearly every schema.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'te',
  'su',
  'no',
  've',
  'di',
  'po',
  'ba',
  'ze',
  'qu',
  'fi',
  'go',
  'hu',
];
const FIELD_VOCABULARY = Array.from({ length: 4_000 }, (_, r) => {
  const a = SYLLABLES[r % 16]!;
  const b = SYLLABLES[(r >> 4) % 16]!;
  const c = r >= 256 ? SYLLABLES[(r >> 8) % 16]! : '';
  return `${a}${b}${c}x`;
});
const ZIPF_CDF = (() => {
  const weights = FIELD_VOCABULARY.map((_, r) => 1 / (r + 1));
  const total = weights.reduce((x, y) => x + y, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();

function fieldWord(i: number, f: number, k: number): string {
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(f + 1, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 13;
  const u = (h >>> 0) / 4_294_967_296;
  let lo = 0;
  let hi = ZIPF_CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF_CDF[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return FIELD_VOCABULARY[lo]!;
}

export function benchDatasetUrn(i: number, run: string): string {
  const platform = PLATFORMS[i % PLATFORMS.length]!;
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${run}_db${i % 40}.${word(i, 1)}_${word(i, 2)}_${i},PROD)`;
}

function aspect(
  urn: string,
  aspectName: string,
  value: unknown,
  entityType = 'dataset',
): Record<string, unknown> {
  return {
    entityType,
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
        fieldPath: `${fieldWord(i, f, 8)}_${f}`,
        nativeDataType: f % 2 ? 'varchar' : 'bigint',
        type: { type: { [f % 2 ? 'com.linkedin.schema.StringType' : 'com.linkedin.schema.NumberType']: {} } },
        description: `${fieldWord(i, f, 9)} of the row`,
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

/**
 * Three entities of other types, written after the datasets as a catalog grows: a tag, a glossary term
 * and a user (one aspect each), named and described with the business words, so that a search across
 * every entity type finds some of each.
 */
export function laterEntityProposals(i: number, run: string): Record<string, unknown>[] {
  const name = `${word(i, 1)} ${word(i, 2)} ${i}`;
  const description = `The ${word(i, 3)} of every ${word(i, 4)}.`;
  return [
    aspect(`urn:li:tag:${run}_tag_${i}`, 'tagProperties', { name, description }, 'tag'),
    aspect(
      `urn:li:glossaryTerm:${run}_term_${i}`,
      'glossaryTermInfo',
      { name, definition: description, termSource: 'INTERNAL' },
      'glossaryTerm',
    ),
    aspect(
      `urn:li:corpuser:${run}_user_${i}`,
      'corpUserInfo',
      { active: true, displayName: name, title: description },
      'corpuser',
    ),
  ];
}

/** Business words: each is in the names or descriptions of about a fifth of the datasets. */
export const SEARCH_WORDS = WORDS;
/** The most frequent column word: in nearly every dataset's schema, the worst case of a full-text query. */
export const COMMONEST_FIELD_WORD = FIELD_VOCABULARY[0]!;
export const BENCH_PLATFORMS = PLATFORMS;
export const BENCH_TAGS = TAGS;
