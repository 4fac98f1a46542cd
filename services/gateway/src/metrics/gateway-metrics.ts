import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ActiveIdentities } from './active-identities.js';
import type { OperationTimer } from './timed-port.js';
import { identityMetricsOf, type RequestApi, type UsageOperation } from './usage-operation.js';

/** How long an identity counts as active after its last request (the ecosystem's flush interval). */
export const DEFAULT_ACTIVE_WINDOW_MS = 60_000;

/** Seconds: from a fast cached read to a slow batch write. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One consumer group's lag on one topic, as the metrics report it. */
export interface LagSample {
  readonly consumerGroup: string;
  readonly groupId: string;
  readonly topic: string;
  readonly lag: number;
}

/** One JavaScript thread's heap (the embedded catalog runs its consumers as threads). */
export interface ThreadHeap {
  readonly thread: string;
  readonly heapUsed: number;
}

/** A request as the usage metrics record it. */
export interface UsageRecord {
  readonly api: RequestApi;
  readonly operation: UsageOperation;
  readonly actorUrn: string;
  readonly actorClass: 'regular' | 'system' | 'support';
  readonly agentClass: string;
  readonly authChannel: string;
  readonly inputBytes?: number;
  readonly outputBytes?: number;
}

export interface GatewayMetricsOptions {
  /** Which event log carries the pipeline: the lag series' `messaging_system`. */
  readonly messagingSystem: 'kafka' | 'embedded';
  /** Reads the consumers' lag when metrics are scraped. */
  readonly lag: () => Promise<readonly LagSample[]>;
  /** The process's other threads' heaps, when it has any. */
  readonly threads?: () => Promise<readonly ThreadHeap[]>;
  readonly activeWindowMs?: number;
}

/**
 * The gateway's metrics in Prometheus' text format (`GET /actuator/prometheus`), named as the
 * ecosystem's GMS exports them where it has names:
 * - `http_server_requests_seconds` (Spring's request timer: method, uri as the route template, status,
 *   outcome, exception), the request rate and latency by route;
 * - `datahub_request_count_total`, `datahub_usage_input_bytes_total`, `datahub_usage_output_bytes_total`
 *   and the gauge `datahub_usage_active_identities` (its usage aggregation, same labels and values);
 * - process memory and CPU under the Prometheus client's standard `process_*` and `nodejs_*` names (the
 *   ecosystem's are the JVM's), each consumer thread's heap as `nodejs_thread_heap_used_bytes`;
 * ours, where the ecosystem has none by that measure:
 * - `messaging_consumer_lag_records` (records a consumer group has still to read, labelled with the
 *   ecosystem's `messaging_system`, `topic` and `consumer_group` tags; its own lag metric is a queue time);
 * - `catalog_store_operation_seconds` and `catalog_index_operation_seconds` (the aspect store's and the
 *   search, graph, time-series and audit indices' calls, by operation and outcome).
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly httpRequests: Histogram<'method' | 'uri' | 'status' | 'outcome' | 'exception'>;
  /**
   * The usage counters' totals by label values, added to per request with one map lookup and handed to
   * the three counters when they are scraped (prom-client validates and hashes the labels on every
   * call, three times per request otherwise). The label values are few: enumerations and known classes.
   */
  private readonly usageTotals = new Map<string, UsageTotals>();
  private readonly identities: ActiveIdentities;
  private readonly storeCalls: Histogram<'operation' | 'outcome'>;
  private readonly indexCalls: Histogram<'index' | 'operation' | 'outcome'>;

  constructor(options: GatewayMetricsOptions) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Histogram({
      name: 'http_server_requests_seconds',
      help: 'HTTP requests by route: count, total and distribution of their duration',
      labelNames: ['method', 'uri', 'status', 'outcome', 'exception'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const usageLabels = [
      'usage_operation',
      'actor_class',
      'agent_class',
      'request_api',
      'auth_channel',
    ] as const;
    const totals = this.usageTotals;
    const usageCounter = (name: string, help: string, value: (t: UsageTotals) => number | undefined) =>
      new Counter({
        name,
        help,
        labelNames: usageLabels,
        registers,
        collect() {
          this.reset();
          for (const t of totals.values()) {
            const amount = value(t);
            if (amount !== undefined) this.inc(t.labels, amount);
          }
        },
      });
    usageCounter(
      'datahub_request_count_total',
      'API requests by usage operation, actor class, agent class, API and authentication channel',
      (t) => t.requests,
    );
    usageCounter(
      'datahub_usage_input_bytes_total',
      'Request body bytes (Content-Length) of recorded API requests',
      (t) => t.inputBytes,
    );
    usageCounter(
      'datahub_usage_output_bytes_total',
      'Response body bytes of recorded API requests',
      (t) => t.outputBytes,
    );
    this.identities = new ActiveIdentities(options.activeWindowMs ?? DEFAULT_ACTIVE_WINDOW_MS);
    const identities = this.identities;
    new Gauge({
      name: 'datahub_usage_active_identities',
      help: 'Distinct identities active in the last window, by identity metric and actor class',
      labelNames: ['identity_metric', 'actor_class'],
      registers,
      collect() {
        this.reset();
        for (const { metric, actorClass, count } of identities.counts())
          this.set({ identity_metric: metric, actor_class: actorClass }, count);
      },
    });
    new Gauge({
      name: 'messaging_consumer_lag_records',
      help: 'Records a consumer group has still to read, by topic',
      labelNames: ['messaging_system', 'topic', 'consumer_group', 'group_id'],
      registers,
      async collect() {
        const samples = await options.lag();
        this.reset();
        for (const s of samples)
          this.set(
            {
              messaging_system: options.messagingSystem,
              topic: s.topic,
              consumer_group: s.consumerGroup,
              group_id: s.groupId,
            },
            s.lag,
          );
      },
    });
    if (options.threads) {
      const threads = options.threads;
      new Gauge({
        name: 'nodejs_thread_heap_used_bytes',
        help: 'Heap used by each JavaScript thread of the process',
        labelNames: ['thread'],
        registers,
        async collect() {
          const heaps = await threads();
          this.reset();
          for (const t of heaps) this.set({ thread: t.thread }, t.heapUsed);
        },
      });
    }
    this.storeCalls = new Histogram({
      name: 'catalog_store_operation_seconds',
      help: 'Aspect store calls by operation and outcome',
      labelNames: ['operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.indexCalls = new Histogram({
      name: 'catalog_index_operation_seconds',
      help: 'Search, graph, time-series and audit index calls by index, operation and outcome',
      labelNames: ['index', 'operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
  }

  /** One HTTP request: its route template (`{param}` for each parameter), status and duration. */
  observeRequest(method: string, uri: string, status: number, seconds: number): void {
    this.httpRequests.observe(
      { method, uri, status: String(status), outcome: outcomeOf(status), exception: 'None' },
      seconds,
    );
  }

  /** One request the usage taxonomy classifies (see request-usage.ts). */
  recordUsage(usage: UsageRecord): void {
    const key = `${usage.operation}\u0000${usage.actorClass}\u0000${usage.agentClass}\u0000${usage.api}\u0000${usage.authChannel}`;
    let totals = this.usageTotals.get(key);
    if (totals === undefined) {
      const labels: Record<UsageLabel, string> = {
        usage_operation: usage.operation,
        actor_class: usage.actorClass,
        agent_class: usage.agentClass,
        request_api: usage.api,
        auth_channel: usage.authChannel,
      };
      this.usageTotals.set(key, (totals = { labels, requests: 0 }));
    }
    totals.requests++;
    if (usage.inputBytes !== undefined) totals.inputBytes = (totals.inputBytes ?? 0) + usage.inputBytes;
    if (usage.outputBytes !== undefined) totals.outputBytes = (totals.outputBytes ?? 0) + usage.outputBytes;
    this.identities.record(usage.actorUrn, usage.actorClass, identityMetricsOf(usage.operation));
  }

  /** The timer of one aspect-store operation (its two series resolved once). */
  storeTimer(operation: string): OperationTimer {
    return timerOf(this.storeCalls, { operation });
  }

  /** The timer of one operation of an index (search, graph, timeseries, audit). */
  indexTimer(index: string, operation: string): OperationTimer {
    return timerOf(this.indexCalls, { index, operation });
  }

  /** The text format and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

type UsageLabel = 'usage_operation' | 'actor_class' | 'agent_class' | 'request_api' | 'auth_channel';

/** One label set's usage so far; the byte totals only once a request of it had a size to count. */
interface UsageTotals {
  readonly labels: Record<UsageLabel, string>;
  requests: number;
  inputBytes?: number;
  outputBytes?: number;
}

function timerOf<L extends string>(
  histogram: Histogram<L | 'outcome'>,
  labels: Record<L, string>,
): OperationTimer {
  const success = { ...labels, outcome: 'success' } as Record<L | 'outcome', string>;
  const error = { ...labels, outcome: 'error' } as Record<L | 'outcome', string>;
  return {
    success: (seconds) => histogram.observe(success, seconds),
    error: (seconds) => histogram.observe(error, seconds),
  };
}

/** Spring's `outcome` tag. */
function outcomeOf(status: number): string {
  if (status < 200) return 'INFORMATIONAL';
  if (status < 300) return 'SUCCESS';
  if (status < 400) return 'REDIRECTION';
  if (status < 500) return 'CLIENT_ERROR';
  return 'SERVER_ERROR';
}
