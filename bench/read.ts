/**
 * Entity read throughput and latency: GET /entitiesV2/{urn} over seeded datasets.
 *   pnpm bench:read [--n 50000] [--c 16] [--entities 10000] [--url http://host:8080] [--auth system|token|off]
 */
import { intArg, readArgs } from './lib/args.js';
import { benchAuthEnv, benchAuthOf, benchAuthorization } from './lib/auth.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient, report, runLoad } from './lib/load.js';

const args = readArgs({ n: '50000', c: '16', entities: '10000', url: '', auth: 'system' });
const auth = benchAuthOf(args.auth);
const n = intArg(args.n, 'n');
const c = intArg(args.c, 'c');
const entities = intArg(args.entities, 'entities');

const catalog = args.url ? undefined : await startCatalogProcess(benchAuthEnv(auth));
const baseUrl = args.url || catalog!.baseUrl;
const client = new JsonClient(baseUrl, c, await benchAuthorization(auth, baseUrl));
const run = Date.now().toString(36);

try {
  const batch = 500;
  for (let b = 0; b * batch < entities; b++) {
    await client.expectOk('POST', '/aspects?action=ingestProposalBatch', {
      proposals: Array.from({ length: Math.min(batch, entities - b * batch) }, (_, j) => {
        const i = b * batch + j;
        return propertiesProposal(datasetUrn(i, run), i);
      }),
      async: 'false',
    });
  }
  const path = (i: number) => `/entitiesV2/${encodeURIComponent(datasetUrn((i * 7919) % entities, run))}`;
  await runLoad(Math.min(5000, n), c, (i) => client.expectOk('GET', path(i)).then(() => undefined));
  const result = await runLoad(n, c, (i) => client.expectOk('GET', path(i)).then(() => undefined));
  console.table([report(`entitiesV2 GET, ${entities} entities, c=${c}`, result)]);
} finally {
  client.close();
  await catalog?.stop();
}
