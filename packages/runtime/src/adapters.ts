import { openEmbeddedEventLog, type EventLog } from '@catalog/events';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { AuditIndex, GraphIndex, ProjectionWriter, SearchIndex, TimeseriesIndex } from '@catalog/search';
import { childLogger, type Logger } from './logger.js';
import type { AdapterSettings } from './adapter-settings.js';
import { embeddedTopicRetention } from './retention-settings.js';
import { sqliteCacheKiB } from './sqlite-cache-settings.js';
import { BACKSTOP_CHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer.js';

let checkpointer: WalCheckpointer | undefined;

/**
 * Embedded files are checkpointed by one background thread per process (started from the main thread,
 * which opens every file the process uses); commits then only checkpoint past a large backstop.
 */
function checkpointInBackground<T extends { close(): Promise<void> }>(
  adapter: T,
  file: string,
  logger: Logger,
): T {
  if (!isMainThread) return adapter;
  checkpointer ??= new WalCheckpointer({ logger: childLogger(logger, { module: 'wal-checkpointer' }) });
  const running = checkpointer;
  running.watch(file);
  let closed = false;
  return new Proxy(adapter, {
    get(target, property) {
      if (property === 'close') {
        return async () => {
          try {
            await target.close();
          } finally {
            if (!closed) running.unwatch(file);
            closed = true;
          }
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Opens the event log the settings select: Kafka when KAFKA_BOOTSTRAP_SERVER is set, else embedded. */
export async function openEventLog(settings: AdapterSettings, logger: Logger): Promise<EventLog> {
  if (settings.kafka) {
    // Loaded only when selected, so the embedded mode never loads kafkajs.
    const { openKafkaEventLog } = await import('@catalog/events/kafka');
    return openKafkaEventLog({
      ...settings.kafka,
      maxMessageBytes: settings.maxMessageBytes,
      logger: childLogger(logger, { module: 'event-log' }),
    });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const log = await openEmbeddedEventLog({
    directory: settings.dataDir,
    durability: settings.durability,
    maxMessageBytes: settings.maxMessageBytes,
    logger: childLogger(logger, { module: 'event-log' }),
    autoCheckpointPages: BACKSTOP_CHECKPOINT_PAGES,
    cacheKiB: sqliteCacheKiB(settings.sqliteCacheBytes, 'eventlog'),
    defaultRetentionMs: settings.retention.logRetentionMs,
    defaultRetentionBytes: settings.retention.logRetentionBytes,
    topicRetention: embeddedTopicRetention(settings.topics, settings.retention),
    // One enforcer per process is enough: the main thread's (it opens every file the process uses).
    retentionCheckIntervalMs: isMainThread ? settings.retention.logRetentionCheckIntervalMs : 0,
  });
  return checkpointInBackground(log, join(settings.dataDir, 'eventlog.sqlite'), logger);
}

/**
 * Opens the aspect store the settings select: MongoDB (or a MongoDB-wire server) when MONGODB_URI is
 * set, on the URI's database (else `catalog`); else embedded.
 */
export async function openAspectStore(settings: AdapterSettings, logger: Logger): Promise<AspectStore> {
  if (settings.mongodb) {
    // Loaded only when selected, so the embedded setup never loads the MongoDB driver.
    const { openMongoAspectStore } = await import('@catalog/store/mongodb');
    return openMongoAspectStore({
      uri: settings.mongodb.uri,
      requestRetentionMs: settings.retention.requestRetentionMs,
      maxRequestRows: settings.retention.maxRequestRows,
      logger: childLogger(logger, { module: 'aspect-store' }),
    });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const file = join(settings.dataDir, 'aspects.sqlite');
  const store = await openSqliteAspectStore({
    file,
    durability: settings.durability,
    requestRetentionMs: settings.retention.requestRetentionMs,
    maxRequestRows: settings.retention.maxRequestRows,
    // The main thread's store prunes the request ids for the whole file.
    ...(isMainThread ? {} : { requestPruneIntervalMs: 0 }),
    autoCheckpointPages: BACKSTOP_CHECKPOINT_PAGES,
    cacheKiB: sqliteCacheKiB(settings.sqliteCacheBytes, 'aspects'),
    logger: childLogger(logger, { module: 'aspect-store' }),
  });
  return checkpointInBackground(store, file, logger);
}

/** The three read models the indexer writes and the gateway reads. */
export interface SearchAdapters {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** Where the engine takes them together: a projection batch's documents and edges in one request. */
  readonly projection?: ProjectionWriter;
  close(): Promise<void>;
}

/**
 * Opens the search, graph and time-series indices: OpenSearch when OPENSEARCH_URL is set, else embedded.
 * `servesSearches`: this process answers searches (the gateway), so the embedded index reads its large
 * entity types' query structures when it opens and keeps them current (SearchWarmer); a process that
 * only writes or restores leaves it unset.
 */
export async function openSearchAdapters(
  settings: AdapterSettings,
  logger: Logger,
  options: { readonly servesSearches?: boolean } = {},
): Promise<SearchAdapters> {
  if (settings.opensearch) {
    const { openOpenSearch } = await import('@catalog/search/opensearch');
    return openOpenSearch({
      node: settings.opensearch.url,
      ...(settings.opensearch.username ? { username: settings.opensearch.username } : {}),
      ...(settings.opensearch.password ? { password: settings.opensearch.password } : {}),
      indexPrefix: settings.indexPrefix,
      refresh: settings.opensearch.refresh,
      logger: childLogger(logger, { module: 'opensearch' }),
    });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const { openEmbeddedSearch } = await import('@catalog/search');
  const file = join(settings.dataDir, 'search.sqlite');
  const search = await openEmbeddedSearch({
    file,
    durability: settings.durability,
    autoCheckpointPages: BACKSTOP_CHECKPOINT_PAGES,
    cacheKiB: sqliteCacheKiB(settings.sqliteCacheBytes, 'search'),
    logger: childLogger(logger, { module: 'search' }),
    ...(options.servesSearches === true
      ? { warm: { logger: childLogger(logger, { module: 'search' }) } }
      : {}),
  });
  return checkpointInBackground(search, file, logger);
}

export interface AuditIndexOptions {
  /** Days an event is kept for; 0 keeps events forever (default 90, the adapter's). */
  readonly retentionDays?: number;
}

/**
 * Opens the audit index: OpenSearch (day indices `<prefix_>datahub_usage_event_<yyyy.mm.dd>`) when
 * OPENSEARCH_URL is set, else a SQLite file of its own (`audit.sqlite`, a table per UTC day). The audit
 * consumer writes it, the gateway's audit search reads it.
 */
export async function openAuditIndex(
  settings: AdapterSettings,
  logger: Logger,
  options: AuditIndexOptions = {},
): Promise<AuditIndex> {
  const retention = options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays };
  if (settings.opensearch) {
    const { openOpenSearchAuditIndex } = await import('@catalog/search/opensearch');
    return openOpenSearchAuditIndex({
      node: settings.opensearch.url,
      ...(settings.opensearch.username ? { username: settings.opensearch.username } : {}),
      ...(settings.opensearch.password ? { password: settings.opensearch.password } : {}),
      indexPrefix: settings.indexPrefix,
      refresh: settings.opensearch.refresh,
      logger: childLogger(logger, { module: 'opensearch-audit' }),
      ...retention,
    });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const { openSqliteAuditIndex } = await import('@catalog/search');
  const audit = openSqliteAuditIndex({
    file: join(settings.dataDir, 'audit.sqlite'),
    durability: settings.durability,
    cacheKiB: sqliteCacheKiB(settings.sqliteCacheBytes, 'audit'),
    ...retention,
  });
  await audit.ensure();
  return audit;
}
