/**
 * Live subscriptions' latency: how long after a write is acknowledged its change event reaches SSE clients.
 *   pnpm bench:subscriptions [--writes 500] [--streams 1] [--url http://host:8080]
 * Opens `streams` subscriptions (`entityChanged`, TAG changes) read by fetch, then makes `writes` synchronous
 * tag writes one after another; each is timed from its acknowledged response to its event on every stream
 * (p50/p99 over all of them). Nothing is asserted: the numbers are for the reader.
 */
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { percentile, SYSTEM_CLIENT_AUTHORIZATION } from './lib/load.js';

const args = readArgs({ writes: '500', streams: '1', url: '' });
const writes = intArg(args.writes, 'writes');
const streams = intArg(args.streams, 'streams');

const catalog = args.url ? undefined : await startCatalogProcess();
const baseUrl = args.url || catalog!.baseUrl;
const run = Date.now().toString(36);
const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,subscriptions_${run}.tagged,PROD)`;
const QUERY = `subscription($urns: [String!]) {
  entityChanged(filter: {urns: $urns, categories: ["TAG"], operations: ["ADD"]}) { modifier }
}`;

/** When each tag's event reached a stream: tag name → arrival times (ms, performance clock). */
const arrivals = new Map<string, number[]>();
const waiters = new Map<string, () => void>();
const controllers: AbortController[] = [];

async function openStream(): Promise<void> {
  const controller = new AbortController();
  controllers.push(controller);
  const res = await fetch(`${baseUrl}/api/graphql`, {
    method: 'POST',
    headers: {
      Authorization: SYSTEM_CLIENT_AUTHORIZATION,
      Accept: 'text/event-stream',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ query: QUERY, variables: { urns: [urn] } }),
    signal: controller.signal,
  });
  if (res.status !== 200 || res.body === null) throw new Error(`subscription: HTTP ${res.status}`);
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (data === undefined || data === 'data: ') continue;
          const modifier = (JSON.parse(data.slice(6)) as { data?: { entityChanged?: { modifier?: string } } })
            .data?.entityChanged?.modifier;
          if (modifier === undefined) continue;
          const times = arrivals.get(modifier) ?? [];
          times.push(performance.now());
          arrivals.set(modifier, times);
          if (times.length === streams) waiters.get(modifier)?.();
        }
      }
    } catch {
      // Aborted at the end of the run.
    }
  })();
}

try {
  for (let i = 0; i < streams; i++) await openStream();
  const latencies: number[] = [];
  const tags: string[] = [];
  for (let i = 0; i < writes; i++) {
    const tag = `urn:li:tag:t${i}`;
    tags.push(tag);
    const received = new Promise<void>((resolve) => waiters.set(tag, resolve));
    const res = await fetch(`${baseUrl}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { Authorization: SYSTEM_CLIENT_AUTHORIZATION, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        proposal: {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'globalTags',
          aspect: {
            contentType: 'application/json',
            value: JSON.stringify({ tags: tags.map((t) => ({ tag: t })) }),
          },
        },
      }),
    });
    if (res.status !== 200) throw new Error(`write ${i}: HTTP ${res.status} ${await res.text()}`);
    const acknowledged = performance.now();
    await Promise.race([
      received,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`${tag} not received in 30 s`)), 30_000)),
    ]);
    for (const at of arrivals.get(tag) ?? []) latencies.push(Math.max(0, at - acknowledged));
  }
  const sorted = latencies.sort((a, b) => a - b);
  console.table([
    {
      scenario: `write acknowledged → SSE event, ${streams} stream(s)`,
      events: sorted.length,
      'p50 ms': Number(percentile(sorted, 50).toFixed(2)),
      'p99 ms': Number(percentile(sorted, 99).toFixed(2)),
      'max ms': Number((sorted.at(-1) ?? NaN).toFixed(2)),
    },
  ]);
} finally {
  for (const controller of controllers) controller.abort();
  await catalog?.stop();
}
