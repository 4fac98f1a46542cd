/**
 * The audit trail: how soon a write shows in the audit search, and how fast the audit index answers.
 *   pnpm bench:audit [--part lag|search|both] [--family embedded|distributed] [--auth system|token|off]
 *                    [--n 5000] [--c 16] [--url http://host:8080] [--timeout 120]
 *                    [--events 1000000] [--queries 300]
 * Part `lag`: starts a catalog (embedded on a fresh data directory, or `distributed` on the local
 * Kafka, MongoDB-wire server and OpenSearch with a database, index prefix and topic set of this run;
 * `--url` uses a running one) and runs N synchronous single-aspect writes (ingestProposal,
 * datasetProperties) at concurrency C. Meanwhile a poller calls POST /openapi/v1/events/audit/search
 * every ~50 ms for aspectTypes [datasetProperties], from the newest timestamp seen (minus an overlap that
 * reaches back to the oldest write not yet seen), following nextScrollId; the lag of an event is the time
 * the poller first saw it minus its timestamp (the change log's created time). After the writes the
 * poller goes on until every write's event has been seen, or --timeout seconds.
 * Part `search`: opens an audit index directly (embedded: a SQLite file in a temp directory;
 * distributed: OpenSearch at OPENSEARCH_URL under the index prefix benchaudit<run>, deleted at the end),
 * loads --events synthetic events in batches of 5,000 and measures the latency of query classes through
 * AuditIndex.search (--queries each, after a warm-up).
 * `distributed` needs KAFKA_BOOTSTRAP_SERVER, MONGODB_URI and OPENSEARCH_URL (pnpm infra:up, then
 * set -a; . /tmp/catalog-infra/env; set +a).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  openSqliteAuditIndex,
  type AuditEvent,
  type AuditIndex,
  type AuditPage,
  type AuditQuery,
} from '@catalog/search';
import { openOpenSearchAuditIndex } from '@catalog/search/opensearch';
import { intArg, readArgs } from './lib/args.js';
import { benchAuthEnv, benchAuthOf, benchAuthorization } from './lib/auth.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { benchFamilyEnv, familyRunResources } from './lib/family-env.js';
import { removeRunResources } from './lib/run-resources.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient, percentile, report, runLoad } from './lib/load.js';

const args = readArgs({
  part: 'both',
  family: 'embedded',
  auth: 'system',
  url: '',
  n: '5000',
  c: '16',
  timeout: '120',
  events: '1000000',
  queries: '300',
});
if (!['lag', 'search', 'both'].includes(args.part)) throw new Error('--part is lag, search or both');
if (args.family !== 'embedded' && args.family !== 'distributed')
  throw new Error('--family is embedded or distributed');
const auth = benchAuthOf(args.auth);
const n = intArg(args.n, 'n');
const c = intArg(args.c, 'c');
const timeoutMs = intArg(args.timeout, 'timeout') * 1000;
const eventCount = intArg(args.events, 'events');
const queries = intArg(args.queries, 'queries');
const run = Date.now().toString(36);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DAY = 86_400_000;

const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------
// Part 1: audit lag while ingesting at the sync-ingest rate.

interface UsageEvent {
  readonly eventType: string;
  readonly timestamp: number;
  readonly actorUrn: string;
  readonly entityUrn?: string;
  readonly aspectName?: string;
}

interface AuditResponse {
  readonly nextScrollId?: string;
  readonly count: number;
  readonly total: number;
  readonly usageEvents: UsageEvent[];
}

/** Margin (ms) below the oldest unseen write's start, and below the newest seen timestamp. */
const OVERLAP_MS = 1000;
const POLL_INTERVAL_MS = 50;

async function auditLag(): Promise<void> {
  const env = { ...benchFamilyEnv(args.family, `ba${run}`, repoRoot), ...benchAuthEnv(auth) };
  const catalog = args.url ? undefined : await startCatalogProcess(env);
  const baseUrl = args.url || catalog!.baseUrl;
  const authorization = await benchAuthorization(auth, baseUrl);
  const client = new JsonClient(baseUrl, c, authorization);
  const pollClient = new JsonClient(baseUrl, 1, authorization);
  const tag = `al${run}`;
  try {
    // Warm-up: JIT, connections, the audit consumer's first batches (other urns, not counted).
    await runLoad(Math.min(500, n), c, (i) =>
      client.expectOk('POST', '/aspects?action=ingestProposal', {
        proposal: propertiesProposal(datasetUrn(i, `warm${run}`), i),
        async: 'false',
      }),
    );

    const urnIndex = new Map<string, number>();
    for (let i = 0; i < n; i++) urnIndex.set(datasetUrn(i, tag), i);
    /** Issue time (Date.now) of each write; a write's event is never older than this. */
    const issuedAt: (number | undefined)[] = new Array<number | undefined>(n);
    const failed = new Set<number>();
    const seenKeys = new Set<string>();
    const seenUrns = new Map<string, number>(); // urn -> events seen for it
    const lags: number[] = [];
    const pollMs: number[] = [];
    let newestSeen = 0;
    let unseenFloor = 0; // index below which every issued write has been seen or failed
    let polls = 0;
    let pages = 0;
    let pollErrors = 0;
    let writesDone = false;
    const runStart = Date.now();

    /** The oldest issue time of a write not yet seen (undefined: none pending). */
    const oldestPending = (): number | undefined => {
      while (
        unseenFloor < n &&
        issuedAt[unseenFloor] !== undefined &&
        (failed.has(unseenFloor) || seenUrns.has(datasetUrn(unseenFloor, tag)))
      )
        unseenFloor++;
      // Writes are issued in index order, so the first one not seen is the oldest pending.
      return unseenFloor < n ? issuedAt[unseenFloor] : undefined;
    };

    const pollOnce = async (): Promise<void> => {
      const pending = oldestPending();
      let startTime = Math.max(runStart - OVERLAP_MS, newestSeen - OVERLAP_MS);
      if (pending !== undefined) startTime = Math.min(startTime, pending - OVERLAP_MS);
      let scrollId: string | undefined;
      const t0 = performance.now();
      do {
        const query = new URLSearchParams({
          startTime: String(startTime),
          size: '10000',
          includeRaw: 'false',
        });
        if (scrollId !== undefined) query.set('scrollId', scrollId);
        const body = await pollClient.expectOk(
          'POST',
          `/openapi/v1/events/audit/search?${query.toString()}`,
          {
            aspectTypes: ['datasetProperties'],
          },
        );
        const now = Date.now();
        pages++;
        const page = JSON.parse(body) as AuditResponse;
        for (const event of page.usageEvents) {
          const urn = event.entityUrn;
          if (urn === undefined || !urnIndex.has(urn)) continue;
          const key = `${urn} ${event.timestamp}`;
          if (seenKeys.has(key)) continue;
          seenKeys.add(key);
          seenUrns.set(urn, (seenUrns.get(urn) ?? 0) + 1);
          lags.push(now - event.timestamp);
          if (event.timestamp > newestSeen) newestSeen = event.timestamp;
        }
        scrollId = page.nextScrollId;
      } while (scrollId !== undefined);
      pollMs.push(performance.now() - t0);
      polls++;
    };

    const expectedSeen = () => n - failed.size;
    let pollerStop = false;
    const poller = (async () => {
      for (;;) {
        const t0 = Date.now();
        try {
          await pollOnce();
        } catch (error) {
          pollErrors++;
          if (pollErrors <= 3) console.error(`audit search failed: ${(error as Error).message}`);
        }
        if (pollerStop) return;
        if (writesDone && seenUrns.size >= expectedSeen()) return;
        await sleep(Math.max(0, POLL_INTERVAL_MS - (Date.now() - t0)));
      }
    })();

    const writes = await runLoad(n, c, async (i) => {
      issuedAt[i] = Date.now();
      try {
        await client.expectOk('POST', '/aspects?action=ingestProposal', {
          proposal: propertiesProposal(datasetUrn(i, tag), i),
          async: 'false',
        });
      } catch (error) {
        failed.add(i);
        throw error;
      }
    });
    writesDone = true;
    const writesEnded = Date.now();
    const deadline = writesEnded + timeoutMs;
    while (seenUrns.size < expectedSeen() && Date.now() < deadline) await sleep(100);
    const timedOut = seenUrns.size < expectedSeen();
    pollerStop = true;
    await poller;
    const drained = Date.now();
    // A last look, so an event recorded twice (a second timestamp for one urn) is counted too.
    await pollOnce().catch(() => undefined);

    const sorted = [...lags].sort((a, b) => a - b);
    const sortedPolls = [...pollMs].sort((a, b) => a - b);
    const seen = seenKeys.size;
    const expected = expectedSeen();
    const doubled = [...seenUrns.values()].filter((k) => k > 1).length;
    console.table([report(`ingestProposal sync, c=${c}`, writes)]);
    console.table([
      {
        scenario: `audit lag (poll every ${POLL_INTERVAL_MS} ms)`,
        'writes/s': Math.round((writes.operations / writes.durationMs) * 1000),
        'seen events': seen,
        expected,
        'p50 ms': sorted.length ? percentile(sorted, 50) : NaN,
        'p95 ms': sorted.length ? percentile(sorted, 95) : NaN,
        'p99 ms': sorted.length ? percentile(sorted, 99) : NaN,
        'max ms': sorted.length ? sorted[sorted.length - 1]! : NaN,
        'drain after writes ms': drained - writesEnded,
        polls,
        'poll pages': pages,
        'poll p50 ms': round(percentile(sortedPolls, 50)),
        'poll p99 ms': round(percentile(sortedPolls, 99)),
        'poll errors': pollErrors,
      },
    ]);
    if (timedOut)
      console.error(
        `\n*** TIMEOUT: after ${timeoutMs / 1000} s only ${seenUrns.size} of ${expected} writes had an audit event ***\n`,
      );
    if (seen !== expected || doubled > 0 || writes.errors > 0) {
      console.error(
        `\n*** MISMATCH: ${seen} audit events seen for ${expected} successful writes ` +
          `(${seenUrns.size} urns seen, ${doubled} urns with more than one event, ${writes.errors} failed writes) ***\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    client.close();
    pollClient.close();
    await catalog?.stop();
    const resources = familyRunResources(env);
    if (resources && catalog) await removeRunResources(resources);
  }
}

// ---------------------------------------------------------------------------------------------------
// Part 2: search over many events, on the audit index directly.

const EVENT_TYPES: readonly (readonly [string, number])[] = [
  // [type, weight]: entity changes dominate, as in a real catalog's trail.
  ['UpdateAspectEvent', 40],
  ['CreateAspectEvent', 10],
  ['DeleteAspectEvent', 3],
  ['DeleteEntityEvent', 2],
  ['LogInEvent', 12],
  ['FailedLogInEvent', 3],
  ['CreateAccessTokenEvent', 3],
  ['RevokeAccessTokenEvent', 2],
  ['CreateUserEvent', 3],
  ['UpdateUserEvent', 3],
  ['CreatePolicyEvent', 3],
  ['UpdatePolicyEvent', 4],
  ['CreateIngestionSourceEvent', 4],
  ['UpdateIngestionSourceEvent', 8],
];
const ENTITY_EVENTS = new Set([
  'UpdateAspectEvent',
  'CreateAspectEvent',
  'DeleteAspectEvent',
  'DeleteEntityEvent',
]);
const ENTITY_TYPES = [
  'dataset',
  'chart',
  'dashboard',
  'dataJob',
  'dataFlow',
  'container',
  'glossaryTerm',
  'tag',
  'domain',
  'corpuser',
];
const ASPECTS = Array.from({ length: 50 }, (_, k) =>
  k < 12
    ? [
        'datasetProperties',
        'schemaMetadata',
        'ownership',
        'globalTags',
        'glossaryTerms',
        'editableDatasetProperties',
        'status',
        'domains',
        'upstreamLineage',
        'institutionalMemory',
        'structuredProperties',
        'browsePathsV2',
      ][k]!
    : `benchAspect${k}`,
);
const ACTORS = Array.from({ length: 200 }, (_, k) => `urn:li:corpuser:bench_user_${k}`);
const BATCH = 5000;

/** mulberry32: a small, seeded generator so every run writes the same events. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickWeighted(r: number): string {
  const sum = EVENT_TYPES.reduce((s, [, w]) => s + w, 0);
  let x = r * sum;
  for (const [type, w] of EVENT_TYPES) {
    if (x < w) return type;
    x -= w;
  }
  return EVENT_TYPES[EVENT_TYPES.length - 1]![0];
}

/** Event i of `total`, in time order over [from, from + 30 days), with a little jitter. */
function syntheticEvent(i: number, total: number, from: number, rnd: () => number): AuditEvent {
  const timestamp = Math.floor(from + ((i + rnd()) * 30 * DAY) / total);
  const eventType = pickWeighted(rnd());
  const actorUrn = ACTORS[Math.floor(rnd() * ACTORS.length)]!;
  const base = {
    id: `bench-${i}`,
    eventType,
    timestamp,
    actorUrn,
    sourceIP: `10.0.${i % 256}.${(i >> 8) % 256}`,
    userAgent: 'bench-audit/1.0',
    eventSource: 'RESTLI',
    telemetryTraceId: (i * 2654435761).toString(16).padStart(32, '0').slice(-32),
  };
  if (ENTITY_EVENTS.has(eventType)) {
    const entityType = ENTITY_TYPES[Math.floor(rnd() * ENTITY_TYPES.length)]!;
    const aspectName = ASPECTS[Math.floor(rnd() * ASPECTS.length)]!;
    const entityUrn = `urn:li:${entityType}:bench_${i % 20000}`;
    return {
      ...base,
      entityType,
      entityUrn,
      aspectName,
      rawUsageEvent: {
        type: eventType,
        timestamp,
        actorUrn,
        entityUrn,
        entityType,
        aspectName,
        changeType: 'UPSERT',
      },
    };
  }
  const loginSource = eventType.endsWith('LogInEvent') ? 'PASSWORD_LOGIN' : undefined;
  return {
    ...base,
    ...(loginSource === undefined ? {} : { loginSource }),
    rawUsageEvent: { type: eventType, timestamp, actorUrn, ...(loginSource ? { loginSource } : {}) },
  };
}

interface QueryClass {
  readonly label: string;
  /** Runs one sample: returns the measured page (the one timed) and its latency. */
  readonly sample: (i: number) => Promise<{ page: AuditPage; ms: number }>;
}

async function timed(index: AuditIndex, query: AuditQuery): Promise<{ page: AuditPage; ms: number }> {
  const t0 = performance.now();
  const page = await index.search(query);
  return { page, ms: performance.now() - t0 };
}

async function openSearchRequest(method: string, path: string): Promise<unknown> {
  const url = new URL(path, process.env['OPENSEARCH_URL']);
  const headers: Record<string, string> = {};
  if (url.username) {
    headers['Authorization'] =
      `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const res = await fetch(url, { method, headers });
  if (!res.ok && res.status !== 404) throw new Error(`OpenSearch ${method} ${path}: ${res.status}`);
  return res.status === 404 ? undefined : res.json();
}

async function auditSearch(): Promise<void> {
  const distributed = args.family === 'distributed';
  const prefix = `benchaudit${run}`;
  let dir: string | undefined;
  let file: string | undefined;
  let index: AuditIndex;
  if (distributed) {
    const node = process.env['OPENSEARCH_URL'];
    if (!node) throw new Error('OPENSEARCH_URL is not set (set -a; . /tmp/catalog-infra/env; set +a)');
    index = await openOpenSearchAuditIndex({ node, indexPrefix: prefix, refresh: 'false', retentionDays: 0 });
  } else {
    dir = mkdtempSync(join(tmpdir(), 'catalog-bench-audit-'));
    file = join(dir, 'audit.sqlite');
    index = openSqliteAuditIndex({ file, retentionDays: 0 });
  }
  const rows: Record<string, string | number>[] = [];
  try {
    await index.ensure();
    const now = Date.now();
    const from = now - 30 * DAY;
    const rnd = random(42);
    const loadStart = performance.now();
    for (let b = 0; b * BATCH < eventCount; b++) {
      const batch: AuditEvent[] = [];
      for (let i = b * BATCH; i < Math.min(eventCount, (b + 1) * BATCH); i++)
        batch.push(syntheticEvent(i, eventCount, from, rnd));
      await index.write(batch);
    }
    await index.refresh();
    const loadMs = performance.now() - loadStart;
    const sizeOf = (f: string) => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    const load: Record<string, string | number> = {
      scenario: `load ${eventCount} events (${BATCH}/write${distributed ? ', then refresh' : ''})`,
      'events/s': Math.round(eventCount / (loadMs / 1000)),
      s: round(loadMs / 1000),
    };
    if (file !== undefined) {
      const bytes = sizeOf(file) + sizeOf(`${file}-wal`);
      load['data MB'] = round(bytes / 1e6);
      load['bytes/event'] = Math.round(bytes / eventCount);
    }
    console.table([load]);

    const end = now + 1;
    const jitter = (i: number) => (i % 97) * 60_000; // move the window so samples differ
    const actor = (i: number) => ACTORS[(i * 37) % ACTORS.length]!;
    const classes: QueryClass[] = [
      {
        label: 'newest page, last 24 h, size 10',
        sample: (i) => timed(index, { startTime: end - DAY - jitter(i), endTime: end - jitter(i), size: 10 }),
      },
      {
        label: '30 days, no filter, size 100',
        sample: (i) => timed(index, { startTime: from, endTime: end - jitter(i), size: 100 }),
      },
      {
        label: '30 days, eventType LogInEvent, size 100',
        sample: (i) =>
          timed(index, { startTime: from, endTime: end - jitter(i), size: 100, eventTypes: ['LogInEvent'] }),
      },
      {
        label: '30 days, one actor, size 100',
        sample: (i) =>
          timed(index, { startTime: from, endTime: end - jitter(i), size: 100, actorUrns: [actor(i)] }),
      },
      {
        label: '30 days, actor+UpdateAspectEvent+aspect, size 100',
        sample: (i) =>
          timed(index, {
            startTime: from,
            endTime: end - jitter(i),
            size: 100,
            actorUrns: [actor(i)],
            eventTypes: ['UpdateAspectEvent'],
            aspectTypes: [ASPECTS[i % 12]!],
          }),
      },
      {
        label: '30 days, no filter, 20th keyset page of 100 (timed: that page)',
        sample: async (i) => {
          const base = { startTime: from, endTime: end - jitter(i), size: 100 };
          let page = await index.search(base);
          for (let p = 2; p < 20; p++) {
            if (page.next === undefined) break;
            page = await index.search({ ...base, after: page.next });
          }
          if (page.next === undefined) throw new Error('fewer than 20 pages');
          return timed(index, { ...base, after: page.next });
        },
      },
      {
        label: '30 days, filter matching nothing, size 100',
        sample: (i) =>
          timed(index, {
            startTime: from,
            endTime: end - jitter(i),
            size: 100,
            actorUrns: ['urn:li:corpuser:nobody'],
          }),
      },
    ];
    for (const q of classes) {
      for (let i = 0; i < Math.min(20, queries); i++) await q.sample(1000 + i); // warm-up
      const ms: number[] = [];
      let last: AuditPage | undefined;
      for (let i = 0; i < queries; i++) {
        const s = await q.sample(i);
        ms.push(s.ms);
        last = s.page;
      }
      ms.sort((a, b) => a - b);
      rows.push({
        scenario: q.label,
        queries,
        'p50 ms': round(percentile(ms, 50), 2),
        'p99 ms': round(percentile(ms, 99), 2),
        'last total': last?.total ?? NaN,
        'last page': last?.events.length ?? NaN,
      });
      if ((last?.total ?? 0) > 10_000)
        console.error(`*** ${q.label}: total ${last?.total} exceeds the 10,000 cap ***`);
    }
    console.table(rows);
  } finally {
    await index.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    if (distributed) {
      const indices = ((await openSearchRequest('GET', `/_cat/indices/${prefix}*?format=json&h=index`)) ??
        []) as {
        index: string;
      }[];
      for (let i = 0; i < indices.length; i += 50)
        await openSearchRequest(
          'DELETE',
          `/${indices
            .slice(i, i + 50)
            .map((x) => x.index)
            .join(',')}`,
        );
      await openSearchRequest('DELETE', `/_index_template/${prefix}_datahub_usage_event`);
    }
  }
}

if (args.part === 'lag' || args.part === 'both') await auditLag();
if (args.part === 'search' || args.part === 'both') await auditSearch();
