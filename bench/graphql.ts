/**
 * GraphQL read paths: scrolling, entity fetches with the common fields, and search with facets.
 *   pnpm bench:graphql [--datasets 100000] [--c 8] [--n 2000] [--url http://host:8080]
 * Seeds datasets with several aspects each (through ingestProposalBatch), waits until search sees them,
 * then measures (1) scrollAcrossEntities over 10,000 of them in pages of 1,000, (2) `entities` for 100
 * URNs with 20 common fields, (3) searchAcrossEntities with facets. The catalog reports its store round
 * trips per request (header X-Catalog-Store-Calls), so DataLoader batching shows in the table.
 */
import { SYSTEM_CLIENT_AUTHORIZATION } from './lib/load.js';
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { benchDatasetUrn, datasetProposals } from './lib/dataset-aspects.js';
import { JsonClient, report, runLoad, type LoadResult } from './lib/load.js';

const args = readArgs({ datasets: '100000', c: '8', n: '2000', url: '' });
const datasets = intArg(args.datasets, 'datasets');
const c = intArg(args.c, 'c');
const n = intArg(args.n, 'n');

const catalog = args.url ? undefined : await startCatalogProcess();
const baseUrl = args.url || catalog!.baseUrl;
const client = new JsonClient(baseUrl, c);
const run = Date.now().toString(36);

interface GraphQLBody {
  data?: Record<string, unknown>;
  errors?: unknown[];
  extensions?: { storeCalls?: number };
}

const storeCalls: Record<string, number[]> = {};

async function graphql(
  label: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLBody> {
  const res = await fetch(`${baseUrl}/api/graphql`, {
    method: 'POST',
    headers: {
      Authorization: SYSTEM_CLIENT_AUTHORIZATION,
      'Content-Type': 'application/json',
      'X-Catalog-Store-Calls': 'true',
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as GraphQLBody;
  if (res.status !== 200 || body.errors !== undefined)
    throw new Error(`${label}: ${res.status} ${JSON.stringify(body.errors).slice(0, 300)}`);
  (storeCalls[label] ??= []).push(body.extensions?.storeCalls ?? 0);
  return body;
}

const COMMON_FIELDS = `urn type
  ... on Dataset { exists name origin platform { urn name } properties { name description qualifiedName customProperties { key value } }
    editableProperties { description } ownership { owners { owner { __typename } type } }
    tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } } domain { domain { urn } }
    subTypes { typeNames } status { removed } deprecation { deprecated } container { urn }
    browsePathV2 { path { name } } dataPlatformInstance { platform { urn } }
    schemaMetadata { fields { fieldPath type } } institutionalMemory { elements { url } } }`;

try {
  const seedStarted = performance.now();
  const batch = 200;
  const batches = Math.ceil(datasets / batch);
  await runLoad(batches, Math.min(c, 4), (b) =>
    client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
      proposals: Array.from({ length: Math.min(batch, datasets - b * batch) }, (_, j) =>
        datasetProposals(b * batch + j, run),
      ).flat(),
      async: 'false',
    }),
  );
  const seedMs = performance.now() - seedStarted;
  const countQuery = `{ searchAcrossEntities(input: {types: [DATASET], query: "*", count: 0}) { total } }`;
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const body = await graphql('count', countQuery);
    const total = (body.data?.['searchAcrossEntities'] as { total: number }).total;
    if (total >= datasets) break;
    if (Date.now() > deadline) throw new Error(`only ${total} of ${datasets} datasets searchable`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const searchableMs = performance.now() - seedStarted;

  const rows: Record<string, string | number>[] = [];
  const scrollPages: number[] = [];
  const scrollStarted = performance.now();
  let scrollId: string | null = null;
  let scrolled = 0;
  while (scrolled < Math.min(10_000, datasets)) {
    const t0 = performance.now();
    const body = await graphql(
      'scroll',
      `
        query ($scrollId: String) {
          scrollAcrossEntities(
            input: {
              types: [DATASET]
              query: "*"
              count: 1000
              scrollId: $scrollId
              searchFlags: { skipAggregates: true }
            }
          ) {
            nextScrollId
            searchResults {
              entity {
                urn
              }
            }
          }
        }
      `,
      { scrollId },
    );
    scrollPages.push(performance.now() - t0);
    const page = body.data?.['scrollAcrossEntities'] as {
      nextScrollId: string | null;
      searchResults: unknown[];
    };
    scrolled += page.searchResults.length;
    scrollId = page.nextScrollId;
    if (scrollId === null) break;
  }
  const scroll: LoadResult = {
    operations: scrollPages.length,
    durationMs: performance.now() - scrollStarted,
    latenciesMs: scrollPages,
    errors: 0,
  };
  rows.push(report(`scrollAcrossEntities, ${scrolled} entities in pages of 1000`, scroll, 1000));

  const urnsFor = (i: number) =>
    Array.from({ length: 100 }, (_, j) => benchDatasetUrn(((i * 100 + j) * 7919) % datasets, run));
  const fetchQuery = `query($urns: [String!]!) { entities(urns: $urns) { ${COMMON_FIELDS} } }`;
  await runLoad(20, c, (i) => graphql('warm', fetchQuery, { urns: urnsFor(i) }));
  const fetched = await runLoad(Math.max(1, Math.floor(n / 10)), c, (i) =>
    graphql('entities', fetchQuery, { urns: urnsFor(i) }),
  );
  rows.push(report('entities(100 urns), 20 common fields', fetched, 100));

  const words = ['daily', 'facts', 'revenue', 'orders', 'customer', 'table', 'night', 'business'];
  const searchQuery = `query($q: String!) { searchAcrossEntities(input: {types: [DATASET], query: $q, count: 10}) {
    total searchResults { entity { urn ... on Dataset { properties { name } } } } facets { field aggregations { value count } } } }`;
  const searched = await runLoad(n, c, (i) => graphql('search', searchQuery, { q: words[i % words.length] }));
  rows.push(report(`searchAcrossEntities with facets, ${datasets} datasets`, searched));

  console.log(
    `seeded ${datasets} datasets in ${(seedMs / 1000).toFixed(1)} s; all searchable after ${(searchableMs / 1000).toFixed(1)} s`,
  );
  console.table(rows);
  const calls = (label: string) => {
    const values = storeCalls[label] ?? [];
    return values.length === 0 ? '-' : `${Math.min(...values)}-${Math.max(...values)}`;
  };
  console.table([
    { request: 'scroll page (urns only)', 'store calls': calls('scroll') },
    { request: 'entities(100 urns), 20 fields', 'store calls': calls('entities') },
    { request: 'search, 10 hits with properties', 'store calls': calls('search') },
  ]);
} finally {
  client.close();
  await catalog?.stop();
}
