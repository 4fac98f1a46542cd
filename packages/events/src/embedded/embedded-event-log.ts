import { DEFAULT_MAX_MESSAGE_BYTES, positiveInteger, validateRecord } from '../record-checks.js';
import { resolve } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { silentLogger, type EventLogLogger } from '../event-log-logger.js';
import { partitionForKey } from '../partitioner.js';
import type {
  ConsumeOptions,
  Consumer,
  EventLog,
  LogRecord,
  PartitionLag,
  PartitionOffsets,
  ProduceRecord,
  ReadOptions,
  RecordPosition,
  TopicSpec,
} from '../port.js';
import { EmbeddedConsumer, type EmbeddedConsumerContext } from './embedded-consumer.js';
import { GroupCoordinator } from './group-coordinator.js';
import {
  LogDatabase,
  type Compression,
  type Durability,
  type PlacedRecord,
  type TopicRow,
} from './log-database.js';
import { formatOffset, parseOffset } from './offsets.js';
import { ProduceQueue } from './produce-queue.js';
import { RetentionEnforcer } from './retention-enforcer.js';
import { TopicSignals } from './topic-signals.js';

export interface EmbeddedEventLogOptions {
  /** Where the log lives: `<directory>/eventlog.sqlite` (created if missing). */
  readonly directory: string;
  /** Partitions of topics created without a count (also auto-created ones). Default 1, as the ecosystem's topics. */
  readonly defaultPartitions?: number;
  /** 'process-crash' (default): survives kill -9. 'power-loss': also survives an OS crash, fsync per commit. */
  readonly durability?: Durability;
  readonly logger?: EventLogLogger;
  /** How often idle consumers look for records written by another process. Default 100 ms. */
  readonly pollIntervalMs?: number;
  /**
   * How often records past their topic's retention are deleted (see RetentionEnforcer). Default 60 s.
   * 0 leaves enforcement to another connection to the same file (one per process is enough), and so
   * does the one-off conversion of an older file to incremental vacuum.
   */
  readonly retentionCheckIntervalMs?: number;
  /**
   * Retention of a topic created without one (a TopicSpec without retentionMs, or auto-created).
   * Default 7 days, Kafka's broker default that the ecosystem's topics rely on.
   */
  readonly defaultRetentionMs?: number;
  /** Size bound per partition of a topic created without one. Default -1 (unbounded), as Kafka's. */
  readonly defaultRetentionBytes?: number;
  /**
   * Retention by topic name, from configuration: it wins over a TopicSpec's and is written to topics that
   * already exist when the log opens (so a file from an older release, whose topics were created
   * without a retention, gets one).
   */
  readonly topicRetention?: Readonly<Record<string, TopicRetention>>;
  /**
   * Records deleted per retention step (one short write transaction), in whole batches: a batch that
   * holds more goes alone in its step. Default 5000.
   */
  readonly retentionChunkRows?: number;
  /** How long a write waits for another process holding the file's write lock. Default 5 s. */
  readonly busyTimeoutMs?: number;
  /**
   * The message-size limit (MAX_MESSAGE_BYTES): a larger record is refused with RecordTooLargeError, as
   * Kafka's topics refuse one, so both families accept exactly the same writes. Default 5242880.
   */
  readonly maxMessageBytes?: number;
  /** Records per batch when the consumer does not say. Default 500. */
  readonly maxBatchSize?: number;
  /** Redelivery backoff after a handler error: starts here and doubles. Default 100 ms. */
  readonly retryInitialMs?: number;
  /** Redelivery backoff ceiling. Default 5 s. */
  readonly retryMaxMs?: number;
  /**
   * WAL pages at which a commit checkpoints the file itself, inside that commit. Default 4000; set it
   * high when a background checkpointer (the runtime's WalCheckpointer) keeps the WAL short instead.
   */
  readonly autoCheckpointPages?: number;
  /**
   * The most memory the log connection's page cache takes, in KiB (SQLite's cache_size, negated): a
   * ceiling, filled only by the pages read. Default 16000, SQLite's as built here; the catalog gives
   * each connection its share of CATALOG_SQLITE_CACHE_BYTES.
   */
  readonly cacheKiB?: number;
  /**
   * How the records one append puts on a partition are stored, as one batch: 'deflate' (default)
   * compresses the batch, as Kafka's producers compress theirs (compression.type); 'none' stores it
   * plain. Either reads a file written with the other.
   */
  readonly compression?: Compression;
}

/** A topic's bounds; an absent field falls back to the TopicSpec's, then to the log's default. */
export interface TopicRetention {
  readonly retentionMs?: number;
  readonly retentionBytes?: number;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Opens (creating if needed) the embedded event log in `options.directory`. */
export async function openEmbeddedEventLog(options: EmbeddedEventLogOptions): Promise<EmbeddedEventLog> {
  return new EmbeddedEventLog(options);
}

/**
 * The EventLog port on one local SQLite file: durable, partitioned by Kafka's key hash, read by consumer
 * groups with committed offsets. Several processes may open the same file; consumer groups are coordinated
 * within a process (see GroupCoordinator).
 */
export class EmbeddedEventLog implements EventLog {
  private readonly db: LogDatabase;
  private readonly topics = new Map<string, TopicRow>();
  private readonly signals = new TopicSignals();
  private readonly coordinator: GroupCoordinator;
  private readonly queue: ProduceQueue;
  private readonly consumers = new Set<EmbeddedConsumer>();
  private readonly consumerContext: EmbeddedConsumerContext;
  private readonly defaultPartitions: number;
  private readonly logger: EventLogLogger;
  private readonly maxMessageBytes: number;
  private readonly retention: RetentionEnforcer;
  private readonly defaultRetention: Required<TopicRetention>;
  private readonly topicRetention: Readonly<Record<string, TopicRetention>>;
  /**
   * Wake consumers of the same log file in the process's other threads (e.g. an indexer worker): one
   * channel per topic, so a produce wakes only the threads that use the topic.
   */
  private readonly channels = new Map<string, BroadcastChannel>();
  private readonly channelPrefix: string;
  private closed = false;

  constructor(options: EmbeddedEventLogOptions) {
    this.defaultPartitions = positiveInteger(options.defaultPartitions ?? 1, 'defaultPartitions');
    this.maxMessageBytes = positiveInteger(
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      'maxMessageBytes',
    );
    this.logger = options.logger ?? silentLogger;
    this.db = new LogDatabase(
      options.directory,
      options.durability ?? 'process-crash',
      options.busyTimeoutMs ?? 5000,
      options.autoCheckpointPages ?? 4000,
      options.cacheKiB ?? 16000,
      options.compression ?? 'deflate',
    );
    this.coordinator = new GroupCoordinator((topic) => this.topic(topic).partitions);
    this.queue = new ProduceQueue(this.db, (placed) => this.notifyProduced(placed));
    this.consumerContext = {
      db: this.db,
      coordinator: this.coordinator,
      signals: this.signals,
      logger: this.logger,
      topic: (name) => this.topic(name),
      flushCommitsSoon: () => this.queue.flushCommitsSoon(),
      pollIntervalMs: options.pollIntervalMs ?? 100,
      defaultMaxBatchSize: options.maxBatchSize ?? 500,
      retryInitialMs: options.retryInitialMs ?? 100,
      retryMaxMs: options.retryMaxMs ?? 5000,
    };
    this.defaultRetention = {
      retentionMs: retentionValue(options.defaultRetentionMs ?? DEFAULT_RETENTION_MS, 'defaultRetentionMs'),
      retentionBytes: retentionValue(options.defaultRetentionBytes ?? -1, 'defaultRetentionBytes'),
    };
    this.topicRetention = options.topicRetention ?? {};
    for (const [name, bounds] of Object.entries(this.topicRetention)) {
      if (bounds.retentionMs !== undefined) retentionValue(bounds.retentionMs, `retentionMs of ${name}`);
      if (bounds.retentionBytes !== undefined)
        retentionValue(bounds.retentionBytes, `retentionBytes of ${name}`);
      const existing = this.storedTopic(name);
      if (existing) this.topics.set(name, existing);
    }
    const checkIntervalMs = options.retentionCheckIntervalMs ?? 60_000;
    this.retention = new RetentionEnforcer(this.db, this.logger, {
      intervalMs: checkIntervalMs,
      chunkRows: positiveInteger(options.retentionChunkRows ?? 5000, 'retentionChunkRows'),
      vacuumChunkPages: 1024,
    });
    if (checkIntervalMs > 0) {
      const conversion = this.db.ensureIncrementalVacuum();
      if (conversion) {
        this.logger.info(
          { ...conversion },
          'event log file rebuilt once for incremental vacuum (it was created without it)',
        );
      }
      this.retention.start();
    }
    this.channelPrefix = `catalog-event-log:${resolve(options.directory)}:`;
    this.logger.info({ directory: options.directory }, 'embedded event log opened');
  }

  async ensureTopics(topics: readonly TopicSpec[]): Promise<void> {
    this.assertOpen();
    for (const spec of topics) {
      const partitions = positiveInteger(
        spec.partitions ?? this.defaultPartitions,
        `partitions of ${spec.name}`,
      );
      const existing = this.topics.get(spec.name) ?? this.storedTopic(spec.name);
      const row = existing ?? this.createTopic(spec.name, partitions, spec);
      this.topics.set(spec.name, row);
    }
  }

  async produce(topic: string, records: readonly ProduceRecord[]): Promise<readonly RecordPosition[]> {
    this.assertOpen();
    if (records.length === 0) return [];
    const row = this.topic(topic);
    const now = Date.now();
    const placed: PlacedRecord[] = records.map((record) => {
      validateRecord(record, topic, this.maxMessageBytes);
      return {
        topicId: row.id,
        partition: partitionForKey(record.key, row.partitions),
        record,
        timestamp: record.timestamp ?? now,
      };
    });
    const offsets = await this.queue.enqueue(placed);
    return placed.map((p, i) => ({ topic, partition: p.partition, offset: formatOffset(offsets[i] ?? -1) }));
  }

  async consume(options: ConsumeOptions): Promise<Consumer> {
    this.assertOpen();
    if (options.topics.length === 0) throw new RangeError('consume needs at least one topic');
    // A group without a committed offset starts at the earliest record or the current end, decided now and
    // stored, so records produced once `ready` resolves are never skipped, even across a restart.
    // An ephemeral group starts afresh: what an earlier consumer of it left (it died unstopped) is dropped.
    if (options.ephemeral && this.coordinator.memberCount(options.groupId) === 0) {
      this.db.deleteGroup(options.groupId);
    }
    for (const name of options.topics) {
      const row = this.topic(name);
      for (let partition = 0; partition < row.partitions; partition++) {
        const start = options.fromBeginning
          ? this.db.earliestOffset(row.id, partition)
          : this.db.endOffset(row.id, partition);
        this.db.initCommitted(options.groupId, row.id, partition, start);
      }
    }
    for (const name of options.topics) this.channel(name);
    const consumer = new EmbeddedConsumer(this.consumerContext, options, (stopped) => {
      this.consumers.delete(stopped);
      this.coordinator.leave(options.groupId, stopped);
      if (options.ephemeral && this.coordinator.memberCount(options.groupId) === 0) {
        this.db.deleteGroup(options.groupId);
      }
    });
    this.consumers.add(consumer);
    this.coordinator.join(options.groupId, consumer);
    return consumer;
  }

  async offsets(topic: string): Promise<readonly PartitionOffsets[]> {
    this.assertOpen();
    const row = this.topic(topic);
    return Array.from({ length: row.partitions }, (_, partition) => ({
      partition,
      start: formatOffset(this.db.earliestOffset(row.id, partition)),
      end: formatOffset(this.db.endOffset(row.id, partition)),
    }));
  }

  async offsetsForTime(topic: string, timestamp: number): Promise<ReadonlyMap<number, string>> {
    this.assertOpen();
    const row = this.topic(topic);
    const out = new Map<number, string>();
    for (let partition = 0; partition < row.partitions; partition++) {
      out.set(partition, formatOffset(this.db.offsetForTime(row.id, partition, timestamp)));
    }
    return out;
  }

  async read(
    topic: string,
    from: ReadonlyMap<number, string>,
    options: ReadOptions,
  ): Promise<readonly LogRecord[]> {
    this.assertOpen();
    positiveInteger(options.maxRecords, 'maxRecords');
    const row = this.topic(topic);
    const starts = [...from].map(([partition, offset]) => {
      if (!Number.isInteger(partition) || partition < 0 || partition >= row.partitions)
        throw new RangeError(`${topic} has no partition ${partition}`);
      return { partition, offset: parseOffset(offset) };
    });
    this.channel(topic);
    const deadline = Date.now() + Math.max(0, options.waitMs ?? 0);
    for (;;) {
      const seen = this.signals.version(topic);
      const records: LogRecord[] = [];
      for (const { partition, offset } of starts) {
        const left = options.maxRecords - records.length;
        if (left <= 0) break;
        for (const r of this.db.fetch(row.id, partition, offset, left)) {
          records.push({
            topic,
            partition,
            offset: formatOffset(r.offset),
            key: r.key,
            value: r.value,
            headers: r.headers,
            timestamp: r.timestamp,
          });
        }
      }
      const remaining = deadline - Date.now();
      if (records.length > 0 || remaining <= 0 || this.closed) return records;
      // A produce in this process wakes the wait at once; one in another process (its channel message)
      // too, and the short cap covers a producer that posts no message.
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.signals.unsubscribe(topic, wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(remaining, READ_RECHECK_MS));
        if (!this.signals.subscribe(topic, seen, wake)) wake();
      });
    }
  }

  async lag(groupId: string, topic: string): Promise<readonly PartitionLag[]> {
    this.assertOpen();
    const row = this.topic(topic);
    const committed = this.db.committedAll(groupId, row.id);
    const lags: PartitionLag[] = [];
    for (let partition = 0; partition < row.partitions; partition++) {
      const end = this.db.endOffset(row.id, partition);
      const offset = committed.get(partition);
      // Without a committed offset, everything still stored is pending; below the log start (retention
      // deleted records the group never read), only what is still stored is.
      const from = Math.max(offset ?? 0, this.db.earliestOffset(row.id, partition));
      lags.push({
        partition,
        offset: offset === undefined ? '-1' : formatOffset(offset),
        endOffset: formatOffset(end),
        lag: Math.max(0, end - from),
      });
    }
    return lags;
  }

  /**
   * Applies every topic's retention now, as the background pass does: records older than the topic's
   * retentionMs (by record timestamp, as Kafka does) or beyond its retentionBytes go, oldest first.
   * Resolves with how many records were deleted.
   */
  async runRetention(now: number = Date.now()): Promise<number> {
    this.assertOpen();
    return (await this.retention.runOnce(now)).deleted;
  }

  /** The database file's size in bytes (without its WAL), for tests and operations. */
  fileBytes(): number {
    this.assertOpen();
    return this.db.fileBytes();
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.db.ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.retention.stop();
    await Promise.all([...this.consumers].map((c) => c.stop()));
    await this.queue.drained();
    for (const channel of this.channels.values()) channel.close();
    this.db.close();
    this.logger.info({}, 'embedded event log closed');
  }

  /** The topic's row, created with the default partition count if it does not exist (Kafka's auto-create). */
  private topic(name: string): TopicRow {
    const cached = this.topics.get(name);
    if (cached) return cached;
    if (name.length === 0) throw new RangeError('topic name must not be empty');
    const row = this.storedTopic(name) ?? this.createTopic(name, this.defaultPartitions, {});
    this.topics.set(name, row);
    return row;
  }

  /** Creates a topic with its retention: the configured one, else the spec's, else the default. */
  private createTopic(name: string, partitions: number, spec: TopicRetention): TopicRow {
    const configured = this.topicRetention[name];
    return this.db.createTopic(
      name,
      partitions,
      retentionValue(
        configured?.retentionMs ?? spec.retentionMs ?? this.defaultRetention.retentionMs,
        `retentionMs of ${name}`,
      ),
      retentionValue(
        configured?.retentionBytes ?? spec.retentionBytes ?? this.defaultRetention.retentionBytes,
        `retentionBytes of ${name}`,
      ),
    );
  }

  /** A topic another connection created, with its configured retention. */
  private storedTopic(name: string): TopicRow | undefined {
    const row = this.db.topic(name);
    return row && this.withConfiguredRetention(row);
  }

  /** Writes the configured retention of an existing topic over what it was created with. */
  private withConfiguredRetention(row: TopicRow): TopicRow {
    const configured = this.topicRetention[row.name];
    if (!configured) return row;
    return this.db.setTopicRetention(
      row,
      configured.retentionMs ?? row.retentionMs,
      configured.retentionBytes ?? row.retentionBytes,
    );
  }

  /** The topic's cross-thread channel; any message on it means "records were produced". */
  private channel(topic: string): BroadcastChannel {
    let channel = this.channels.get(topic);
    if (!channel) {
      channel = new BroadcastChannel(this.channelPrefix + topic);
      channel.onmessage = () => this.signals.notify(topic);
      channel.unref();
      this.channels.set(topic, channel);
    }
    return channel;
  }

  private notifyProduced(placed: readonly PlacedRecord[]): void {
    const topicIds = new Set(placed.map((p) => p.topicId));
    for (const row of this.topics.values()) {
      if (!topicIds.has(row.id)) continue;
      this.signals.notify(row.name);
      this.channel(row.name).postMessage(0);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event log is closed');
  }
}

/** How often a waiting read looks again without a produce signal. */
const READ_RECHECK_MS = 250;

/** A retention bound: -1 (none) or a non-negative integer. */
function retentionValue(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < -1)
    throw new RangeError(`${name} must be -1 or a non-negative integer, got ${value}`);
  return value;
}
