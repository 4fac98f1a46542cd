/**
 * The event log port: a partitioned, durable, replayable log of keyed records, read by consumer groups.
 * The Kafka adapter and the embedded adapter both satisfy the contract suite in @catalog/testkit.
 */

/** Headers are UTF-8 strings on this port (the adapters convert to and from bytes). */
export type RecordHeaders = Readonly<Record<string, string>>;

export interface TopicSpec {
  readonly name: string;
  /** Partition count; defaults to the adapter's configured default. */
  readonly partitions?: number;
  readonly replicationFactor?: number;
  /**
   * Retention in milliseconds; -1 keeps records forever. Records older than this are deleted whether or
   * not every group has read them (as Kafka does); a group whose committed offset fell below the log start
   * continues from the log start. Absent: the adapter's default (the broker's, or the embedded log's).
   */
  readonly retentionMs?: number;
  /**
   * Size bound per partition in bytes (Kafka's `retention.bytes`); the oldest records go first once a
   * partition holds more. -1 is unbounded. Absent: the adapter's default.
   */
  readonly retentionBytes?: number;
}

export interface ProduceRecord {
  /** The partitioning key: records with the same key land in the same partition, in produce order. */
  readonly key: string;
  readonly value: Buffer;
  readonly headers?: RecordHeaders;
  /** Milliseconds since the epoch; defaults to now. */
  readonly timestamp?: number;
}

export interface RecordPosition {
  readonly topic: string;
  readonly partition: number;
  /** Offsets are decimal strings, as in Kafka (they may exceed 2^53). */
  readonly offset: string;
}

export interface LogRecord extends RecordPosition {
  readonly key: string;
  readonly value: Buffer;
  readonly headers: RecordHeaders;
  readonly timestamp: number;
}

/** A run of consecutive records from one partition of one topic, in offset order. */
export interface RecordBatch {
  readonly topic: string;
  readonly partition: number;
  readonly records: readonly LogRecord[];
  /**
   * Commits progress inside the batch: `nextOffset` is the offset of the next record to read
   * (the last processed offset + 1). The consumer also commits the whole batch after the handler resolves.
   */
  commit(nextOffset: string): Promise<void>;
}

export interface ConsumeOptions {
  readonly groupId: string;
  readonly topics: readonly string[];
  /** Where a group with no committed offset starts: earliest (true) or latest (false, the default). */
  readonly fromBeginning?: boolean;
  /** Upper bound on records per batch. */
  readonly maxBatchSize?: number;
  /**
   * How long a read may wait for more records so that batches fill up, for groups whose throughput
   * matters more than one record's latency (the indexer and the audit consumer: every batch costs them
   * round trips to the search engine and the store whatever its size). Under load batches then hold
   * about this long's worth of records; an idle partition's record waits up to this long. Absent or 0:
   * a read returns as soon as a record is there. On Kafka this is the fetch's wait for
   * `fetch.min.bytes`; the embedded log reads without a round trip and ignores it.
   */
  readonly batchWaitMs?: number;
  /**
   * Called for each batch, one at a time per partition, in offset order. When it resolves, the batch is
   * committed. When it throws, nothing further is committed and the same records are delivered again
   * after a backoff (at-least-once); the handler decides what is poison and what is retriable.
   */
  readonly handler: (batch: RecordBatch) => Promise<void>;
  /** Called when a handler error causes a redelivery, for logging. */
  readonly onError?: (error: unknown, batch: Pick<RecordBatch, 'topic' | 'partition'>) => void;
  /**
   * A group that lives as long as this consumer, for notifications one process reads from the end (a
   * gateway's outcomes, its cache invalidation): positions are kept only for this consumer's lifetime,
   * so a new consumer of the group starts as `fromBeginning` says whatever an earlier one read, and the
   * group is deleted when its last consumer stops. On Kafka nothing is ever committed, so the broker
   * also drops the group of a process that died without stopping (an empty group without offsets).
   * Default false: a durable group that resumes from its commits.
   */
  readonly ephemeral?: boolean;
}

export interface Consumer {
  /** Resolves once the consumer has joined its group and been assigned partitions. */
  readonly ready: Promise<void>;
  /** Moves the group's position: the next batch of that partition starts at `offset`. */
  seek(topic: string, partition: number, offset: string): Promise<void>;
  /** Committed offsets of this group, per partition (next offset to read). */
  committed(topic: string): Promise<ReadonlyMap<number, string>>;
  /** Stops fetching, waits for the batch in flight to finish and commit, then leaves the group. */
  stop(): Promise<void>;
}

export interface PartitionLag {
  readonly partition: number;
  /** Committed offset of the group (next to read); "-1" when the group has none. */
  readonly offset: string;
  /** Offset the next produced record will get. */
  readonly endOffset: string;
  readonly lag: number;
}

/** Where a partition's stored records start and where the next one goes. */
export interface PartitionOffsets {
  readonly partition: number;
  /** The first offset still stored (the end when retention emptied the partition). */
  readonly start: string;
  /** The offset the next produced record will get. */
  readonly end: string;
}

export interface ReadOptions {
  /** Upper bound on the records returned (≥ 1). */
  readonly maxRecords: number;
  /**
   * How long to wait for a first record when none is there yet; the read returns as soon as it has one
   * (and what else is at hand). Default 0: answer with what is stored now.
   */
  readonly waitMs?: number;
}

export interface EventLog {
  /** Creates the topics that do not exist yet (idempotent). */
  ensureTopics(topics: readonly TopicSpec[]): Promise<void>;
  /**
   * Appends records to a topic. Resolves once every record is durable (acknowledged), with positions in
   * input order. The partition of a record is chosen by a hash of its key.
   */
  produce(topic: string, records: readonly ProduceRecord[]): Promise<readonly RecordPosition[]>;
  /** Starts a consumer in a group; several groups read the same topic independently. */
  consume(options: ConsumeOptions): Promise<Consumer>;
  /** Each partition of a topic, in partition order, with its first stored offset and its end. */
  offsets(topic: string): Promise<readonly PartitionOffsets[]>;
  /**
   * Per partition, the first offset whose record timestamp is at or after `timestamp` (Kafka's
   * offsetsForTimes), or the partition's end when no record is that recent.
   */
  offsetsForTime(topic: string, timestamp: number): Promise<ReadonlyMap<number, string>>;
  /**
   * Reads records without a consumer group, from the given next offsets (an offset below the log start
   * reads from the start; partitions not given are not read), in offset order per partition. Nothing is
   * committed: the caller keeps the positions (each record's offset + 1).
   */
  read(topic: string, from: ReadonlyMap<number, string>, options: ReadOptions): Promise<readonly LogRecord[]>;
  /** Per-partition lag of a group on a topic. */
  lag(groupId: string, topic: string): Promise<readonly PartitionLag[]>;
  /**
   * Resolves when the log (a metadata round trip on Kafka) answers a trivial request, rejects when it cannot be reached (or once
   * closed). Cheap: readiness probes call it.
   */
  ping(): Promise<void>;
  /** Stops every consumer, flushes producers and releases resources. */
  close(): Promise<void>;
}
