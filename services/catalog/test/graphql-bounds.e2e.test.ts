import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './graphql-client.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, proposal, startTestCatalog, type TestCatalog } from './harness.js';

/** Datasets loaded: enough that one search of all of them is a heavy read, few enough to load in seconds. */
const DATASETS = 2_000;

/** The attack as reported: thirty aliases of the largest page, on every entity. */
const THIRTY_ALIASED_SEARCHES = `{ ${Array.from(
  { length: 30 },
  (_, i) =>
    `s${i}: searchAcrossEntities(input: {query: "*", count: 10000}) { total searchResults { entity { urn ... on Dataset { properties { name description } } } } }`,
).join(' ')} }`;

/**
 * The heaviest read the cost limit lets through here: seven searches of every dataset with their
 * properties (7 × 2,000 results × 7 fields = 98,007 of 100,000).
 */
const HEAVIEST_ALLOWED = `{ ${Array.from(
  { length: 7 },
  (_, i) =>
    `s${i}: searchAcrossEntities(input: {query: "*", types: [DATASET], count: ${DATASETS}}) { searchResults { entity { urn ... on Dataset { properties { name description } } } } }`,
).join(' ')} }`;

/**
 * The shape of mcp-server-datahub's entity query (`GetEntity`: one entity with its preview and details
 * fragments, 34 aliased fields once the fragments are spread), written against this catalog's schema.
 */
function thirtyFourAliasEntityQuery(): string {
  const relationship = (alias: string, type: string, direction: 'INCOMING' | 'OUTGOING') =>
    `${alias}: relationships(input: {types: ["${type}"], direction: ${direction}, start: 0, count: 1}) { total relationships { entity { urn } } }`;
  const preview = [
    relationship('dataProduct', 'DataProductContains', 'INCOMING'),
    relationship('memberCount', 'IsMemberOfGroup', 'INCOMING'),
    relationship('children', 'IsPartOf', 'INCOMING'),
    relationship('parents', 'IsPartOf', 'OUTGOING'),
    'upstream: lineage(input: {direction: UPSTREAM, start: 0, count: 100}) { total }',
    'downstream: lineage(input: {direction: DOWNSTREAM, start: 0, count: 100}) { total }',
    'entityType: type',
    'entityUrn: urn',
    'tagList: tags { tags { tag { urn } } }',
    'termList: glossaryTerms { terms { term { urn } } }',
    'owners: ownership { owners { owner { ... on CorpUser { urn } } } }',
    'domainOf: domain { domain { urn } }',
    'deprecated: deprecation { deprecated }',
    'links: institutionalMemory { elements { url } }',
    'kinds: subTypes { typeNames }',
    'parentContainer: container { urn }',
    'browsePath: browsePathV2 { path { name } }',
    'instance: dataPlatformInstance { urn }',
    'structured: structuredProperties { properties { structuredProperty { urn } } }',
    'state: status { removed }',
    'rawAspects: aspects(input: {aspectNames: ["datasetProperties"]}) { aspectName }',
  ];
  const details = [
    'datasetName: name',
    'datasetPlatform: platform { urn }',
    'env: origin',
    'props: properties { name description }',
    'displayName: properties { name }',
    'editable: editableProperties { description }',
    'schema: schemaMetadata(version: 0) { fields { fieldPath } }',
    'editableSchema: editableSchemaMetadata { editableSchemaFieldInfo { fieldPath } }',
    'exists: exists',
    'entityTags: globalTags { tags { tag { urn } } }',
    'isRemoved: status { removed }',
    'platformOf: platform { platformName: name }',
  ];
  return `query GetEntity($urn: String!) { entity(urn: $urn) { urn ...entityPreview ...entityDetails } }
    fragment entityPreview on Entity { ... on Dataset { ${preview.join(' ')} } }
    fragment entityDetails on Entity { ... on Dataset { ${details.join(' ')} } }`;
}

/** Latencies of `/health`, polled one after the other until `done` settles. */
async function healthLatenciesDuring(base: string, done: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void done.finally(() => (settled = true));
  const latencies: number[] = [];
  while (!settled) {
    const started = performance.now();
    const res = await fetch(`${base}/health`);
    latencies.push(performance.now() - started);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies;
}

describe('GraphQL resource bounds', () => {
  let catalog: TestCatalog;
  let base: string;
  const run = Math.random().toString(36).slice(2, 8);
  const first = datasetUrn(`bounds_${run}.t0`, 'postgres');

  beforeAll(async () => {
    catalog = await startTestCatalog();
    base = catalog.baseUrl;
    const proposals = Array.from({ length: DATASETS }, (_, i) =>
      proposal(datasetUrn(`bounds_${run}.t${i}`, 'postgres'), 'datasetProperties', {
        name: `t${i}`,
        description: `Table ${i} of a load large enough to make a search of all of it a heavy read`,
      }),
    );
    const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
      method: 'POST',
      headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
      body: JSON.stringify({ proposals, async: 'false' }),
    });
    expect(res.status).toBe(200);
  }, 60_000);
  afterAll(async () => catalog?.dispose());

  it('thirty aliased searchAcrossEntities of count 10000 are refused by cost, naming the limit', async () => {
    const res = await graphql(base, THIRTY_ALIASED_SEARCHES);
    expect(res.status).toBe(200);
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 400, type: 'BAD_REQUEST' });
    expect(res.errors?.[0]?.message).toMatch(
      /^Query cost [\d,]+ exceeds the limit of 100,000 \(GRAPHQL_QUERY_COMPLEXITY_LIMIT/,
    );
  });

  it('counts a page size given in a variable, and refuses one over the largest page', async () => {
    const query = `query($n: Int) { searchAcrossEntities(input: {query: "*", count: $n}) { searchResults { entity { urn } } } }`;
    const over = await graphql(base, query, { n: 20_000 });
    expect(over.errors?.[0]?.message).toContain('asks for 20,000 results; a list serves at most 10,000');
    const largest = await graphql(base, query, { n: 10_000 });
    expect(largest.errors).toBeUndefined();
  });

  it("mcp-server-datahub's 34-alias entity query is accepted", async () => {
    const res = await graphql(base, thirtyFourAliasEntityQuery(), { urn: first });
    expect(res.errors).toBeUndefined();
    expect(res.data?.['entity']).toMatchObject({
      urn: first,
      datasetName: `bounds_${run}.t0`,
      props: { name: 't0' },
    });
  });

  it('/health answers while a heavy search runs', async () => {
    const heavy = graphql(base, HEAVIEST_ALLOWED);
    const attack = graphql(base, THIRTY_ALIASED_SEARCHES);
    const latencies = await healthLatenciesDuring(base, Promise.all([heavy, attack]));
    // Generous for a loaded CI machine (measured here: 0.5-0.7 s, the test's own client in the same process
    // included); without the bounds the attack held the event loop for seconds.
    expect(
      Math.max(...latencies),
      `/health latencies ${latencies.map(Math.round).join(', ')} ms`,
    ).toBeLessThan(1_000);
    const allowed = await heavy;
    expect(allowed.errors).toBeUndefined();
    expect((allowed.data?.['s6'] as { searchResults: unknown[] }).searchResults).toHaveLength(DATASETS);
    expect((await attack).errors?.[0]?.message).toContain('exceeds the limit of 100,000');
  }, 60_000);
});
