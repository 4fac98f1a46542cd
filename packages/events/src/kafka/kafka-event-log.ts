import { DEFAULT_MAX_MESSAGE_BYTES, positiveInteger, recordBytes, validateRecord } from '../record-checks.js';
import { Kafka, Partitioners, type Admin, type Message, type Producer, type ProducerConfig } from 'kafkajs';
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
import { KafkaLogConsumer, type KafkaConsumerSettings } from './kafka-consumer.js';
import { kafkaLogCreator, kafkajsLevel, type KafkaLogLevel } from './kafka-logger.js';
import { offsetsFromMetadata } from './kafka-records.js';
import { ProduceBatcher } from './produce-batcher.js';
import { kafkaOffsets, kafkaOffsetsForTime, kafkaRead } from './kafka-reader.js';
import { retryRetriable } from './retry-retriable.js';

export interface KafkaEventLogOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Partitions of topics created without a count. */
  readonly partitions: number;
  readonly replicationFactor: number;
  /** pino-compatible; kafkajs's own logging is bridged into it. */
  readonly logger?: EventLogLogger;
  /** How much of kafkajs's logging to pass on. Default 'info'. */
  readonly kafkaLogLevel?: KafkaLogLevel;
  /** How long a fetch waits for data on the broker. Default 25 ms, so a synchronous write is not held up. */
  readonly maxWaitTimeMs?: number;
  /** Default 10 s (the broker's group.min.session.timeout.ms is 6 s by default). */
  readonly sessionTimeoutMs?: number;
  /** Default 500 ms: a member notices a rebalance within this, so groups settle fast. */
  readonly heartbeatIntervalMs?: number;
  /** How long the broker waits for members to rejoin in a rebalance. Default 15 s. */
  readonly rebalanceTimeoutMs?: number;
  /** Records per handler call when the consumer does not say. Default 500. */
  readonly maxBatchSize?: number;
  /** Partitions one consumer processes at once (each still one batch at a time). Default 4. */
  readonly partitionsConsumedConcurrently?: number;
  /** Redelivery backoff after a handler error, and consumer restart backoff. Default 100 ms, doubling. */
  readonly retryInitialMs?: number;
  /** Backoff ceiling. Default 5 s. */
  readonly retryMaxMs?: number;
  /**
   * max.message.bytes of created topics, and the size above which produce refuses a record itself
   * (RecordTooLargeError). Default 5242880, as the ecosystem's topics.
   */
  readonly maxMessageBytes?: number;
  /** Upper bound on the bytes of one produce request. Default 1 MiB. */
  readonly maxProduceBatchBytes?: number;
}

const FATAL_PRODUCER_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
]);

interface OutgoingRecord {
  readonly topic: string;
  readonly partition: number;
  readonly message: Message;
  readonly size: number;
}

/** Connects to the brokers and returns the EventLog port on Kafka. */
export async function openKafkaEventLog(options: KafkaEventLogOptions): Promise<EventLog> {
  const log = new KafkaEventLog(options);
  await log.connect();
  return log;
}

/**
 * The EventLog port on Apache Kafka (kafkajs): keys are entity URNs, partitioned by Kafka's murmur2;
 * produce calls are coalesced into idempotent, acks=all batches; consumer groups commit manually after
 * the handler resolves.
 */
export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private producer: Producer;
  private readonly producerConfig: ProducerConfig;
  private readonly logger: EventLogLogger;
  private readonly batcher: ProduceBatcher<OutgoingRecord>;
  private readonly partitionCounts = new Map<string, Promise<number>>();
  private readonly consumers = new Set<KafkaLogConsumer>();
  private readonly consumerSettings: KafkaConsumerSettings;
  private readonly maxMessageBytes: number;
  private closed = false;

  constructor(private readonly options: KafkaEventLogOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (options.brokers.length === 0) throw new RangeError('at least one broker is required');
    positiveInteger(options.partitions, 'partitions');
    positiveInteger(options.replicationFactor, 'replicationFactor');
    this.logger = options.logger ?? silentLogger;
    const retry = { initialRetryTime: 100, maxRetryTime: 5_000, retries: 10 };
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      logLevel: kafkajsLevel(options.kafkaLogLevel ?? 'info'),
      logCreator: kafkaLogCreator(this.logger),
      connectionTimeout: 3_000,
      retry,
    });
    this.admin = this.kafka.admin({ retry });
    // Idempotence keeps one key's records in order and unduplicated across retries; kafkajs requires
    // one request in flight for it (the batcher sends one batch at a time anyway).
    this.producerConfig = {
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry,
    };
    this.producer = this.kafka.producer(this.producerConfig);
    this.batcher = new ProduceBatcher((records) => this.send(records), {
      maxBatchBytes: options.maxProduceBatchBytes ?? 1024 * 1024,
      maxBatchRecords: 50_000,
    });
    const retryInitialMs = options.retryInitialMs ?? 100;
    this.consumerSettings = {
      kafka: this.kafka,
      admin: this.admin,
      logger: this.logger,
      sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 500,
      rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 15_000,
      maxWaitTimeMs: options.maxWaitTimeMs ?? 25,
      maxBytesPerPartition: 1024 * 1024,
      partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 4,
      defaultMaxBatchSize: options.maxBatchSize ?? 500,
      retryInitialMs,
      retryMaxMs: options.retryMaxMs ?? 5_000,
      retry,
    };
  }

  async connect(): Promise<void> {
    await this.admin.connect();
    await this.producer.connect();
    this.logger.info({ brokers: this.options.brokers }, 'kafka event log connected');
  }

  async ensureTopics(topics: readonly TopicSpec[]): Promise<void> {
    this.assertOpen();
    await Promise.all(topics.map((spec) => this.ensureTopic(spec)));
  }

  async produce(topic: string, records: readonly ProduceRecord[]): Promise<readonly RecordPosition[]> {
    this.assertOpen();
    if (records.length === 0) return [];
    for (const record of records) validateRecord(record, topic, this.maxMessageBytes);
    const partitions = await this.partitionCount(topic);
    const now = String(Date.now());
    const outgoing = records.map((record): OutgoingRecord => {
      const partition = partitionForKey(record.key, partitions);
      const headers = record.headers ?? {};
      const size = recordBytes(record);
      return {
        topic,
        partition,
        size,
        message: {
          key: record.key,
          value: record.value,
          partition,
          headers: { ...headers },
          timestamp: record.timestamp === undefined ? now : String(record.timestamp),
        },
      };
    });
    const offsets = await this.batcher.enqueue(outgoing);
    return outgoing.map((r, i) => ({ topic, partition: r.partition, offset: offsets[i] ?? '-1' }));
  }

  async consume(options: ConsumeOptions): Promise<Consumer> {
    this.assertOpen();
    if (options.topics.length === 0) throw new RangeError('consume needs at least one topic');
    // Consuming a topic creates it, as the embedded log does (the consumer itself never auto-creates).
    await this.ensureTopics(options.topics.map((name) => ({ name })));
    const consumer = await KafkaLogConsumer.start(this.consumerSettings, options, (stopped) =>
      this.consumers.delete(stopped),
    );
    this.consumers.add(consumer);
    return consumer;
  }

  async offsets(topic: string): Promise<readonly PartitionOffsets[]> {
    this.assertOpen();
    await this.ensureTopics([{ name: topic }]);
    return kafkaOffsets(this.admin, topic);
  }

  async offsetsForTime(topic: string, timestamp: number): Promise<ReadonlyMap<number, string>> {
    this.assertOpen();
    await this.ensureTopics([{ name: topic }]);
    return kafkaOffsetsForTime(this.admin, topic, timestamp);
  }

  async read(
    topic: string,
    from: ReadonlyMap<number, string>,
    options: ReadOptions,
  ): Promise<readonly LogRecord[]> {
    this.assertOpen();
    positiveInteger(options.maxRecords, 'maxRecords');
    await this.ensureTopics([{ name: topic }]);
    return kafkaRead(this.kafka, this.admin, this.logger, topic, from, options);
  }

  async lag(groupId: string, topic: string): Promise<readonly PartitionLag[]> {
    this.assertOpen();
    const [committed, ends] = await Promise.all([
      retryRetriable(() => this.admin.fetchOffsets({ groupId, topics: [topic] })),
      retryRetriable(() => this.admin.fetchTopicOffsets(topic)),
    ]);
    const byPartition = new Map(committed[0]?.partitions.map((p) => [p.partition, p.offset]) ?? []);
    return ends
      .map(({ partition, high, low }): PartitionLag => {
        const offset = byPartition.get(partition) ?? '-1';
        const from = offset === '-1' ? BigInt(low) : BigInt(offset);
        const lag = BigInt(high) - from;
        return { partition, offset, endOffset: high, lag: Number(lag > 0n ? lag : 0n) };
      })
      .sort((a, b) => a.partition - b.partition);
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('the event log is closed');
    // A metadata round trip to a broker; kafkajs's own retries are cut short by the caller's timeout.
    await this.admin.describeCluster();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.consumers].map((c) => c.stop()));
    await this.batcher.drained();
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
    this.logger.info({}, 'kafka event log closed');
  }

  private async ensureTopic(spec: TopicSpec): Promise<void> {
    await this.createTopic(spec);
    // The broker's count, not the spec's: an existing topic keeps the partitions it has.
    const count = this.readPartitionCount(spec.name);
    this.partitionCounts.set(spec.name, count);
    count.catch(() => this.partitionCounts.delete(spec.name));
    await count;
  }

  /** Creates the topic unless it exists; false when it did. */
  private async createTopic(spec: TopicSpec): Promise<boolean> {
    if (spec.name.length === 0) throw new RangeError('topic name must not be empty');
    const maxMessageBytes = String(this.maxMessageBytes);
    const configEntries = [{ name: 'max.message.bytes', value: maxMessageBytes }];
    if (spec.retentionMs !== undefined) {
      configEntries.push({ name: 'retention.ms', value: String(spec.retentionMs) });
    }
    if (spec.retentionBytes !== undefined) {
      configEntries.push({ name: 'retention.bytes', value: String(spec.retentionBytes) });
    }
    const created = await retryRetriable(() =>
      this.admin.createTopics({
        waitForLeaders: true,
        topics: [
          {
            topic: spec.name,
            numPartitions: positiveInteger(
              spec.partitions ?? this.options.partitions,
              `partitions of ${spec.name}`,
            ),
            replicationFactor: spec.replicationFactor ?? this.options.replicationFactor,
            configEntries,
          },
        ],
      }),
    );
    if (created) this.logger.info({ topic: spec.name }, 'topic created');
    return created;
  }

  /** The topic's partition count (cached); a topic produced to before it exists is created with the defaults. */
  private partitionCount(topic: string): Promise<number> {
    let count = this.partitionCounts.get(topic);
    if (!count) {
      count = this.createTopic({ name: topic }).then(() => this.readPartitionCount(topic));
      this.partitionCounts.set(topic, count);
      count.catch(() => this.partitionCounts.delete(topic));
    }
    return count;
  }

  private async readPartitionCount(topic: string): Promise<number> {
    const { topics } = await retryRetriable(() => this.admin.fetchTopicMetadata({ topics: [topic] }));
    const count = topics.find((t) => t.name === topic)?.partitions.length ?? 0;
    if (count < 1) throw new Error(`topic ${topic} has no partitions`);
    return count;
  }

  private async send(records: readonly OutgoingRecord[]): Promise<readonly string[]> {
    const byTopic = new Map<string, Message[]>();
    for (const r of records) {
      let messages = byTopic.get(r.topic);
      if (!messages) byTopic.set(r.topic, (messages = []));
      messages.push(r.message);
    }
    const producer = this.producer;
    try {
      const metadata = await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
      return offsetsFromMetadata(records, metadata);
    } catch (error) {
      if (isFatalForProducer(error) && producer === this.producer) await this.replaceProducer(error);
      throw error;
    }
  }

  /** kafkajs cannot recover an idempotent producer whose sequence the broker lost (e.g. a broker restart). */
  private async replaceProducer(cause: unknown): Promise<void> {
    this.logger.warn({ err: cause }, 'replacing the kafka producer');
    const old = this.producer;
    this.producer = this.kafka.producer(this.producerConfig);
    await old.disconnect().catch(() => undefined);
    await this.producer.connect();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event log is closed');
  }
}

function isFatalForProducer(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const { type, cause } = e as { type?: unknown; cause?: unknown };
    if (typeof type === 'string' && FATAL_PRODUCER_ERRORS.has(type)) return true;
    e = cause;
  }
  return false;
}
