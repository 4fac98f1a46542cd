/**
 * The MCP endpoint's tool latency, as an agent sees it (the SDK's Client over streamable HTTP).
 *   pnpm bench:mcp [--datasets 100000] [--c 4] [--n 1000] [--url http://host:8080]
 * Seeds datasets (five aspects each) in lineage chains of four (each dataset downstream of the one
 * before it), waits until search sees them, then times `search` (keywords, 10 results with facets),
 * `get_entities` (10 urns) and `get_lineage` (3 hops upstream from the end of a chain), p50 and p99.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { benchDatasetUrn, datasetProposals, SEARCH_WORDS } from './lib/dataset-aspects.js';
import { JsonClient, report, runLoad, SYSTEM_CLIENT_AUTHORIZATION } from './lib/load.js';

const args = readArgs({ datasets: '100000', c: '4', n: '1000', url: '' });
const datasets = intArg(args.datasets, 'datasets');
const c = intArg(args.c, 'c');
const n = intArg(args.n, 'n');

const catalog = args.url ? undefined : await startCatalogProcess();
const baseUrl = args.url || catalog!.baseUrl;
const http = new JsonClient(baseUrl, c);
const run = Date.now().toString(36);
/** Datasets per lineage chain: the last is three hops from the first. */
const CHAIN = 4;

function lineageProposal(i: number): Record<string, unknown> {
  const urn = benchDatasetUrn(i, run);
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'upstreamLineage',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({ upstreams: [{ dataset: benchDatasetUrn(i - 1, run), type: 'TRANSFORMED' }] }),
    },
  };
}

async function connect(): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: SYSTEM_CLIENT_AUTHORIZATION } },
    }),
  );
  return client;
}

const clients: Client[] = [];
try {
  const seedStarted = performance.now();
  const batch = 200;
  await runLoad(Math.ceil(datasets / batch), Math.min(c, 4), (b) =>
    http.expectOk('POST', '/aspects?action=ingestProposalBatch', {
      proposals: Array.from({ length: Math.min(batch, datasets - b * batch) }, (_, j) => {
        const i = b * batch + j;
        return [...datasetProposals(i, run), ...(i % CHAIN === 0 ? [] : [lineageProposal(i)])];
      }).flat(),
      async: 'false',
    }),
  );
  const seedMs = performance.now() - seedStarted;
  for (let i = 0; i < c; i++) clients.push(await connect());
  const call = async (i: number, name: string, toolArgs: Record<string, unknown>) => {
    const result = (await clients[i % c]!.callTool({ name, arguments: toolArgs })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    if (result.isError === true) throw new Error(`${name}: ${result.content[0]?.text ?? ''}`);
    return JSON.parse(result.content[0]!.text) as Record<string, unknown>;
  };
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const { total } = await call(0, 'search', {
      query: '*',
      filter: 'entity_type = dataset',
      num_results: 0,
    });
    if ((total as number) >= datasets) break;
    if (Date.now() > deadline) throw new Error(`only ${String(total)} of ${datasets} datasets searchable`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const searchableMs = performance.now() - seedStarted;

  const chainEnd = (i: number) => {
    const chains = Math.max(1, Math.floor(datasets / CHAIN));
    return benchDatasetUrn((((i * 7919) % chains) * CHAIN + CHAIN - 1) % datasets, run);
  };
  await runLoad(20, c, (i) => call(i, 'get_lineage', { urn: chainEnd(i), upstream: true, max_hops: 3 }));
  const rows = [
    report(
      `search (10 results, facets), ${datasets} datasets`,
      await runLoad(n, c, (i) =>
        call(i, 'search', { query: SEARCH_WORDS[i % SEARCH_WORDS.length], num_results: 10 }),
      ),
    ),
    report(
      'get_entities (10 urns)',
      await runLoad(n, c, (i) =>
        call(i, 'get_entities', {
          urns: Array.from({ length: 10 }, (_, j) => benchDatasetUrn(((i * 10 + j) * 7919) % datasets, run)),
        }),
      ),
      10,
    ),
    report(
      'get_lineage (3 hops upstream)',
      await runLoad(n, c, (i) => call(i, 'get_lineage', { urn: chainEnd(i), upstream: true, max_hops: 3 })),
    ),
  ];
  console.log(
    `seeded ${datasets} datasets in ${(seedMs / 1000).toFixed(1)} s; all searchable after ${(searchableMs / 1000).toFixed(1)} s`,
  );
  console.table(rows);
} finally {
  await Promise.all(clients.map((client) => client.close()));
  http.close();
  await catalog?.stop();
}
