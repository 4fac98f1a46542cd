/**
 * Ingest throughput and latency over HTTP: synchronous single-aspect writes, and ingestProposalBatch.
 *   pnpm bench:ingest [--n 20000] [--c 16] [--batch 100] [--url http://host:8080]
 * Without --url an embedded catalog is started in a child process on a fresh data directory.
 */
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient, report, runLoad } from './lib/load.js';

const args = readArgs({ n: '20000', c: '16', batch: '100', url: '', mode: 'sync,async,batch' });
const n = intArg(args.n, 'n');
const c = intArg(args.c, 'c');
const batchSize = intArg(args.batch, 'batch');
const modes = args.mode.split(',');

const catalog = args.url ? undefined : await startCatalogProcess();
const baseUrl = args.url || catalog!.baseUrl;
const client = new JsonClient(baseUrl, c);
const rows: Record<string, string | number>[] = [];
const run = Date.now().toString(36);

try {
  // Warm-up: JIT, connections, SQLite page cache.
  await runLoad(Math.min(2000, n), c, (i) =>
    client.expectOk('POST', '/aspects?action=ingestProposal', {
      proposal: propertiesProposal(datasetUrn(i, `warm${run}`), i),
      async: 'false',
    }),
  ).then(() => undefined);

  if (modes.includes('sync')) {
    const result = await runLoad(n, c, (i) =>
      client.expectOk('POST', '/aspects?action=ingestProposal', {
        proposal: propertiesProposal(datasetUrn(i, `s${run}`), i),
        async: 'false',
      }),
    );
    rows.push(report(`ingestProposal sync, c=${c}`, result));
  }
  if (modes.includes('async')) {
    const result = await runLoad(n, c, (i) =>
      client.expectOk('POST', '/aspects?action=ingestProposal', {
        proposal: propertiesProposal(datasetUrn(i, `a${run}`), i),
        async: 'true',
      }),
    );
    rows.push(report(`ingestProposal async, c=${c}`, result));
  }
  if (modes.includes('batch')) {
    const batches = Math.ceil(n / batchSize);
    const result = await runLoad(batches, c, (b) =>
      client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
        proposals: Array.from({ length: batchSize }, (_, j) => {
          const i = b * batchSize + j;
          return propertiesProposal(datasetUrn(i, `b${run}`), i);
        }),
        async: 'false',
      }),
    );
    rows.push(report(`ingestProposalBatch sync, ${batchSize}/batch, c=${c}`, result, batchSize));
  }
  console.table(rows);
} finally {
  client.close();
  await catalog?.stop();
}
