/**
 * Webhooks end to end: how soon a write reaches a webhook destination, and what subscriptions cost the
 * write path.
 *   pnpm bench:events [--family embedded|distributed] [--n 2000] [--c 16]
 *                     [--subscriptions 0,10,100] [--timeout 300]
 * For each subscription count S: starts a fresh catalog (its own process; embedded on a fresh data
 * directory, or `distributed` on the local Kafka, MongoDB-wire server and OpenSearch with a database,
 * index prefix and topic set of this run), creates S webhook subscriptions (documentation changes of
 * every entity) to a loopback HTTP destination in this process that answers 204, and runs N
 * synchronous datasetProperties writes (a new description each: one change event per write) at
 * concurrency C. It reports the writes' throughput and latency, and (S > 0) the end-to-end latency
 * from a write's send to its event's arrival at the first subscription's destination (p50, p99), once
 * every subscription has received every write's event or --timeout seconds passed. The throughput
 * change against S = 0 is what 100 subscriptions must keep within 5 %.
 * `distributed` needs KAFKA_BOOTSTRAP_SERVER, MONGODB_URI and OPENSEARCH_URL (pnpm infra:up, then
 * set -a; . /tmp/catalog-infra/env; set +a); its dispatcher runs inside the benchmarked catalog process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { benchFamilyEnv, familyRunResources } from './lib/family-env.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient, percentile, report, runLoad } from './lib/load.js';
import { removeRunResources } from './lib/run-resources.js';

const args = readArgs({ family: 'embedded', n: '2000', c: '16', subscriptions: '0,10,100', timeout: '300' });
const n = intArg(args.n, 'n');
const c = intArg(args.c, 'c');
const timeoutMs = intArg(args.timeout, 'timeout') * 1000;
const counts = args.subscriptions.split(',').map((s) => {
  const count = Number(s.trim());
  if (!Number.isInteger(count) || count < 0)
    throw new Error('--subscriptions is a list of counts like 0,10,100');
  return count;
});
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** The destination: counts arrivals per subscription path, and when each write's event first arrived at /s0. */
async function startDestination() {
  const arrivals = new Map<string, number>();
  const firstAt = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const path = req.url ?? '/';
      arrivals.set(path, (arrivals.get(path) ?? 0) + 1);
      if (path === '/s0') {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { entityUrn?: string };
        if (event.entityUrn && !firstAt.has(event.entityUrn)) firstAt.set(event.entityUrn, at);
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    firstAt,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function scenario(subscriptions: number): Promise<Record<string, string | number>> {
  const run = `ev${Date.now().toString(36)}s${subscriptions}`;
  const env = {
    ...benchFamilyEnv(args.family, run, repoRoot),
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    WEBHOOK_DISPATCHER_GROUP_ID: `webhook-dispatcher-${run}`,
  };
  const destination = await startDestination();
  const catalog = await startCatalogProcess(env);
  const client = new JsonClient(catalog.baseUrl, c);
  try {
    for (let s = 0; s < subscriptions; s++) {
      const res = await client.send('POST', '/api/graphql', {
        query: 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { urn } } }',
        variables: {
          input: {
            name: `bench ${s}`,
            url: destination.url(`/s${s}`),
            filter: { categories: ['DOCUMENTATION'] },
          },
        },
      });
      if (res.status !== 200 || res.body.includes('"errors"')) throw new Error(`createWebhook: ${res.body}`);
    }
    // The dispatcher reads subscriptions again every WEBHOOK_REFRESH_MS (1 s): every one is live before the writes.
    await new Promise((r) => setTimeout(r, 2_000));
    const sentAt = new Map<string, number>();
    const writes = await runLoad(n, c, async (i) => {
      const urn = datasetUrn(i, run);
      sentAt.set(urn, performance.now());
      const res = await client.send('POST', '/aspects?action=ingestProposal', {
        proposal: propertiesProposal(urn, i),
      });
      if (res.status !== 200) throw new Error(`write ${i}: ${res.status} ${res.body}`);
    });
    const row = report(`${subscriptions} subscriptions`, writes);
    if (subscriptions === 0) return row;
    const expected = n - writes.errors;
    const deadline = Date.now() + timeoutMs;
    const complete = () =>
      [...Array(subscriptions).keys()].every((s) => (destination.arrivals.get(`/s${s}`) ?? 0) >= expected);
    while (!complete() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const latencies = [...destination.firstAt].flatMap(([urn, at]) => {
      const sent = sentAt.get(urn);
      return sent === undefined ? [] : [at - sent];
    });
    latencies.sort((a, b) => a - b);
    const delivered = Math.min(
      ...[...Array(subscriptions).keys()].map((s) => destination.arrivals.get(`/s${s}`) ?? 0),
    );
    if (!complete()) {
      console.error(
        `*** TIMEOUT: a subscription had ${delivered} of ${expected} events after ${timeoutMs / 1000} s ***`,
      );
      process.exitCode = 1;
    }
    return {
      ...row,
      'delivered (min per sub)': delivered,
      'e2e p50 ms': round(percentile(latencies, 50)),
      'e2e p99 ms': round(percentile(latencies, 99)),
    };
  } finally {
    client.close();
    await catalog.stop();
    await destination.close();
    const resources = familyRunResources(env);
    if (resources) await removeRunResources(resources);
  }
}

const rows: Record<string, string | number>[] = [];
for (const count of counts) rows.push(await scenario(count));
const baseline = rows.find((r) => r['scenario'] === '0 subscriptions')?.['ops/s'];
for (const row of rows)
  if (typeof baseline === 'number' && typeof row['ops/s'] === 'number')
    row['write ops/s vs 0'] = `${round(((row['ops/s'] - baseline) / baseline) * 100)} %`;
console.log(`\nwebhooks (${args.family}): ${n} synchronous writes at concurrency ${c} per scenario`);
console.table(rows);
