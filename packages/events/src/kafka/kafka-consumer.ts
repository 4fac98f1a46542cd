import type { Admin, Consumer as KafkaJsConsumer, ConsumerRunConfig, EachBatchPayload, Kafka } from 'kafkajs';
import type { EventLogLogger } from '../event-log-logger.js';
import type { ConsumeOptions, Consumer, RecordBatch } from '../port.js';
import { toLogRecord } from './kafka-records.js';
import { retryRetriable } from './retry-retriable.js';

export interface KafkaConsumerSettings {
  readonly kafka: Kafka;
  readonly admin: Admin;
  readonly logger: EventLogLogger;
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly maxWaitTimeMs: number;
  readonly maxBytesPerPartition: number;
  readonly partitionsConsumedConcurrently: number;
  readonly defaultMaxBatchSize: number;
  /** Redelivery backoff after a handler error: starts here, doubles up to retryMaxMs. */
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
  readonly retry: {
    readonly initialRetryTime: number;
    readonly maxRetryTime: number;
    readonly retries: number;
  };
}

interface PartitionState {
  backoffMs: number;
  /** Bumped by seek: a batch that started under an older generation must not commit over the new position. */
  generation: number;
  /** Commits of one partition run one after another, so a seek's commit is never overtaken by a batch's. */
  commits: Promise<unknown>;
  /** What the partition's batch is waiting for now, and since when (for the stall watchdog). */
  stage: { readonly name: 'handler' | 'commit'; readonly since: number } | undefined;
}

/** A batch step taking longer than this is reported (warn) by the stall watchdog, once a minute. */
const STALL_REPORT_MS = 60_000;

type Offsets = Parameters<EachBatchPayload['commitOffsetsIfNecessary']>[0];

/**
 * One member of a consumer group on kafkajs: eachBatch with manual commits (after the handler resolves),
 * pause + seek back + backoff on a handler error, and a restart when kafkajs gives up after a crash.
 */
export class KafkaLogConsumer implements Consumer {
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private readonly consumer: KafkaJsConsumer;
  private readonly partitions = new Map<string, PartitionState>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly topics: readonly string[];
  private readonly maxBatchSize: number;
  private readonly log: Record<string, unknown>;
  private joined = false;
  /** An ephemeral group's positions (next offset per partition): it commits nothing to the broker. */
  private readonly positions = new Map<string, string>();
  private stopped = false;
  private stopping: Promise<void> | undefined;
  private restartBackoffMs: number;
  private readonly watchdog: NodeJS.Timeout;

  private constructor(
    private readonly settings: KafkaConsumerSettings,
    private readonly options: ConsumeOptions,
    /** Where a group with no committed offset starts (fromBeginning: false): the end when it subscribed. */
    private readonly pinned: Map<string, string>,
    private readonly onStopped: (consumer: KafkaLogConsumer) => void,
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.topics = [...new Set(options.topics)];
    this.maxBatchSize = options.maxBatchSize ?? settings.defaultMaxBatchSize;
    this.restartBackoffMs = settings.retryInitialMs;
    this.log = { groupId: options.groupId };
    this.consumer = settings.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: settings.sessionTimeoutMs,
      heartbeatInterval: settings.heartbeatIntervalMs,
      rebalanceTimeout: settings.rebalanceTimeoutMs,
      // A group that waits for full batches asks the broker to hold the fetch until it has more bytes
      // than such a batch ever reaches, so the wait, not the size, ends it.
      ...(options.batchWaitMs
        ? { maxWaitTimeInMs: options.batchWaitMs, minBytes: settings.maxBytesPerPartition }
        : { maxWaitTimeInMs: settings.maxWaitTimeMs }),
      maxBytesPerPartition: settings.maxBytesPerPartition,
      allowAutoTopicCreation: false,
      retry: { ...settings.retry },
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => this.onJoin(event.payload.memberAssignment));
    this.consumer.on(this.consumer.events.CRASH, (event) => this.onCrash(event.payload));
    this.watchdog = setInterval(() => this.reportStalls(), STALL_REPORT_MS);
    this.watchdog.unref();
  }

  /** Warns about every partition whose batch has waited on one step for over STALL_REPORT_MS. */
  private reportStalls(): void {
    const now = Date.now();
    for (const [key, state] of this.partitions) {
      if (state.stage === undefined || now - state.stage.since < STALL_REPORT_MS) continue;
      const [topic, partition] = key.split('\u0000');
      this.settings.logger.warn(
        {
          ...this.log,
          topic,
          partition: Number(partition),
          stage: state.stage.name,
          forMs: now - state.stage.since,
        },
        'a batch has been waiting on one step for over a minute',
      );
    }
  }

  static async start(
    settings: KafkaConsumerSettings,
    options: ConsumeOptions,
    onStopped: (consumer: KafkaLogConsumer) => void,
  ): Promise<KafkaLogConsumer> {
    const pinned = options.fromBeginning
      ? new Map<string, string>()
      : await startOffsets(
          settings.admin,
          options.groupId,
          [...new Set(options.topics)],
          options.ephemeral === true,
        );
    const consumer = new KafkaLogConsumer(settings, options, pinned, onStopped);
    await consumer.consumer.connect();
    await consumer.consumer.subscribe({
      topics: [...consumer.topics],
      fromBeginning: !!options.fromBeginning,
    });
    await consumer.consumer.run(consumer.runConfig());
    return consumer;
  }

  async seek(topic: string, partition: number, offset: string): Promise<void> {
    if (!/^\d+$/.test(offset)) throw new RangeError(`offset must be a non-negative integer, got ${offset}`);
    const state = this.state(topic, partition);
    state.generation += 1;
    if (this.options.ephemeral) this.positions.set(tpKey(topic, partition), offset);
    else await this.serialized(state, () => this.consumer.commitOffsets([{ topic, partition, offset }]));
    // Takes effect on this member's next fetch when it owns the partition; otherwise the commit carries it.
    this.consumer.seek({ topic, partition, offset });
  }

  async committed(topic: string): Promise<ReadonlyMap<number, string>> {
    if (this.options.ephemeral) return this.ephemeralPositions(topic);
    const [entry] = await retryRetriable(() =>
      this.settings.admin.fetchOffsets({ groupId: this.options.groupId, topics: [topic] }),
    );
    const out = new Map<number, string>();
    for (const p of entry?.partitions ?? []) if (p.offset !== '-1') out.set(p.partition, p.offset);
    return out;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      clearInterval(this.watchdog);
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      try {
        // kafkajs waits for the batch in flight (which commits), then leaves the group.
        await this.consumer.disconnect();
        if (this.options.ephemeral) await this.deleteGroup();
      } finally {
        this.markReady();
        this.onStopped(this);
      }
    })();
    return this.stopping;
  }

  private runConfig(): ConsumerRunConfig {
    return {
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.eachBatch(payload),
    };
  }

  /**
   * Runs synchronously inside kafkajs's join, before its first fetch: a seek registered here decides where
   * that fetch starts. The start offsets are committed too, so they hold across a restart.
   */
  private onJoin(assignment: Readonly<Record<string, readonly number[] | undefined>>): void {
    this.settings.logger.debug({ ...this.log, assignment }, 'joined consumer group');
    if (this.options.ephemeral) {
      this.resumeEphemeral(assignment);
      return;
    }
    if (this.joined) return;
    this.joined = true;
    const starts: { topic: string; partition: number; offset: string }[] = [];
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions ?? []) {
        const offset = this.pinned.get(tpKey(topic, partition));
        if (offset === undefined) continue;
        this.consumer.seek({ topic, partition, offset });
        starts.push({ topic, partition, offset });
      }
    }
    this.pinned.clear();
    if (starts.length === 0) {
      this.markReady();
      return;
    }
    // After the join returns (kafkajs marks the runner running only then), so the commit is not dropped.
    setImmediate(() => {
      this.consumer
        .commitOffsets(starts)
        .catch((error: unknown) =>
          this.settings.logger.warn({ ...this.log, err: error }, 'could not commit start offsets'),
        )
        .finally(() => this.markReady());
    });
  }

  /**
   * Every join of an ephemeral group: nothing is committed, so without a seek kafkajs would start each
   * partition at the end after a rejoin and skip what arrived meanwhile. The first join pins the ends
   * taken at subscription; later ones resume where this member was.
   */
  private resumeEphemeral(assignment: Readonly<Record<string, readonly number[] | undefined>>): void {
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions ?? []) {
        const key = tpKey(topic, partition);
        const offset = this.positions.get(key) ?? this.pinned.get(key);
        if (offset === undefined) continue;
        this.positions.set(key, offset);
        this.consumer.seek({ topic, partition, offset });
      }
    }
    this.pinned.clear();
    this.joined = true;
    this.markReady();
  }

  private ephemeralPositions(topic: string): ReadonlyMap<number, string> {
    const out = new Map<number, string>();
    for (const [key, offset] of this.positions) {
      const [name, partition] = key.split('\u0000');
      if (name === topic) out.set(Number(partition), offset);
    }
    return out;
  }

  /** Removes an ephemeral group from the broker; a failure leaves it to the broker's own clean-up. */
  private async deleteGroup(): Promise<void> {
    try {
      await retryRetriable(() => this.settings.admin.deleteGroups([this.options.groupId]));
    } catch (error) {
      this.settings.logger.warn(
        { ...this.log, err: error },
        'could not delete the ephemeral consumer group; the broker drops it once it expires',
      );
    }
  }

  private onCrash(payload: { readonly error: Error; readonly restart: boolean }): void {
    this.settings.logger.error(
      { ...this.log, err: payload.error, restart: payload.restart },
      'kafka consumer crashed',
    );
    if (payload.restart || this.stopped) return;
    this.scheduleRestart();
  }

  /** kafkajs restarts only after retriable errors; after any other crash the member restarts here. */
  private scheduleRestart(): void {
    const delay = this.restartBackoffMs;
    this.restartBackoffMs = Math.min(this.restartBackoffMs * 2, this.settings.retryMaxMs);
    this.later(delay, async () => {
      if (this.stopped) return;
      try {
        await this.consumer.connect();
        await this.consumer.run(this.runConfig());
        this.restartBackoffMs = this.settings.retryInitialMs;
      } catch (error) {
        this.settings.logger.error({ ...this.log, err: error }, 'consumer restart failed; retrying');
        this.scheduleRestart();
      }
    });
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning, isStale, resolveOffset } = payload;
    const { topic, partition, messages } = batch;
    const state = this.state(topic, partition);
    const generation = state.generation;
    const moved = (): boolean => isStale() || state.generation !== generation;
    const commit = (next: bigint): Promise<unknown> =>
      this.serialized(state, async () => {
        if (moved()) return;
        if (this.options.ephemeral) {
          this.positions.set(tpKey(topic, partition), next.toString());
          return;
        }
        const offsets: Offsets = {
          topics: [{ topic, partitions: [{ partition, offset: next.toString() }] }],
        };
        await payload.commitOffsetsIfNecessary(offsets);
      });

    for (let index = 0; index < messages.length;) {
      if (!isRunning() || moved()) return;
      const chunk = messages.slice(index, index + this.maxBatchSize);
      const records = chunk.map((m) => toLogRecord(topic, partition, m));
      const first = BigInt(records[0]?.offset ?? '0');
      const last = records[records.length - 1]?.offset ?? '0';
      const end = BigInt(last) + 1n;
      let progress = first;
      const recordBatch: RecordBatch = {
        topic,
        partition,
        records,
        commit: async (nextOffset) => {
          const next = BigInt(nextOffset);
          if (next < first || next > end) {
            throw new RangeError(`commit offset ${nextOffset} is outside the batch [${first}, ${end}]`);
          }
          await commit(next);
          if (next > progress) progress = next;
        },
      };
      const heartbeats = this.keepAlive(payload);
      state.stage = { name: 'handler', since: Date.now() };
      try {
        await this.options.handler(recordBatch);
      } catch (error) {
        this.reportError(error, topic, partition);
        this.redeliverLater(payload, progress, state, moved());
        return;
      } finally {
        clearInterval(heartbeats);
        state.stage = undefined;
      }
      state.backoffMs = this.settings.retryInitialMs;
      // A rebalance error here propagates: kafkajs rejoins and the new owner gets the records again.
      state.stage = { name: 'commit', since: Date.now() };
      try {
        await commit(end);
      } finally {
        state.stage = undefined;
      }
      if (moved()) return;
      resolveOffset(last);
      index += chunk.length;
    }
  }

  /** Pauses the partition, points it back at the first uncommitted record and resumes after a backoff. */
  private redeliverLater(
    payload: EachBatchPayload,
    from: bigint,
    state: PartitionState,
    alreadyMoved: boolean,
  ): void {
    const { topic, partition } = payload.batch;
    if (!alreadyMoved) this.consumer.seek({ topic, partition, offset: from.toString() });
    const resume = payload.pause();
    const delay = state.backoffMs;
    state.backoffMs = Math.min(state.backoffMs * 2, this.settings.retryMaxMs);
    this.settings.logger.debug(
      { ...this.log, topic, partition, offset: from.toString(), delay },
      'redelivering',
    );
    this.later(delay, async () => resume());
  }

  /** Heartbeats while a long handler runs, so the member keeps its partitions. */
  private keepAlive(payload: EachBatchPayload): NodeJS.Timeout {
    return setInterval(() => {
      payload.heartbeat().catch(() => undefined);
    }, this.settings.heartbeatIntervalMs);
  }

  private reportError(error: unknown, topic: string, partition: number): void {
    try {
      this.options.onError?.(error, { topic, partition });
    } catch (hookError) {
      this.settings.logger.warn({ ...this.log, err: hookError, topic, partition }, 'onError hook threw');
    }
    if (!this.options.onError) {
      this.settings.logger.warn(
        { ...this.log, err: error, topic, partition },
        'handler failed; redelivering',
      );
    }
  }

  private serialized<T>(state: PartitionState, work: () => Promise<T>): Promise<T> {
    const run = state.commits.then(work, work);
    state.commits = run.catch(() => undefined);
    return run;
  }

  private later(ms: number, work: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void work();
    }, ms);
    this.timers.add(timer);
  }

  private state(topic: string, partition: number): PartitionState {
    const key = tpKey(topic, partition);
    let state = this.partitions.get(key);
    if (!state) {
      state = {
        backoffMs: this.settings.retryInitialMs,
        generation: 0,
        commits: Promise.resolve(),
        stage: undefined,
      };
      this.partitions.set(key, state);
    }
    return state;
  }
}

/** For partitions where the group has no committed offset (an ephemeral group: all): the current end offset. */
async function startOffsets(
  admin: Admin,
  groupId: string,
  topics: readonly string[],
  ignoreCommitted: boolean,
): Promise<Map<string, string>> {
  const starts = new Map<string, string>();
  const committed = await retryRetriable(() => admin.fetchOffsets({ groupId, topics: [...topics] }));
  for (const { topic, partitions } of committed) {
    const missing = partitions.filter((p) => ignoreCommitted || p.offset === '-1');
    if (missing.length === 0) continue;
    const ends = await retryRetriable(() => admin.fetchTopicOffsets(topic));
    for (const p of missing) {
      const end = ends.find((e) => e.partition === p.partition);
      if (end) starts.set(tpKey(topic, p.partition), end.high);
    }
  }
  return starts;
}

function tpKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
