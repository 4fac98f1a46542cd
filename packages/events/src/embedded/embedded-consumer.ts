import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventLogLogger } from '../event-log-logger.js';
import type { ConsumeOptions, Consumer, LogRecord, RecordBatch } from '../port.js';
import type { GroupCoordinator, GroupMember, TopicPartition } from './group-coordinator.js';
import type { LogDatabase, TopicRow } from './log-database.js';
import { formatOffset, parseOffset } from './offsets.js';
import type { TopicSignals } from './topic-signals.js';

export interface EmbeddedConsumerContext {
  readonly db: LogDatabase;
  readonly coordinator: GroupCoordinator;
  readonly signals: TopicSignals;
  readonly logger: EventLogLogger;
  readonly topic: (name: string) => TopicRow;
  /** Has the connection write its deferred commits soon (with the next produce, or alone). */
  readonly flushCommitsSoon: () => void;
  readonly pollIntervalMs: number;
  readonly defaultMaxBatchSize: number;
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
}

type Outcome =
  { kind: 'processed' } | { kind: 'failed' } | { kind: 'revoked' } | { kind: 'idle'; seen: number };

/**
 * One member of a consumer group: one loop per assigned partition, each with at most one batch in flight,
 * reading from the group's committed offset (so a failed batch is redelivered from wherever the handler's
 * partial commits left it, and a seek takes effect on the next fetch).
 */
export class EmbeddedConsumer implements Consumer, GroupMember {
  readonly ready: Promise<void> = Promise.resolve();
  readonly topics: readonly string[];
  private running = true;
  private owned = new Set<string>();
  private readonly loops = new Map<string, Promise<void>>();
  private readonly wakers = new Set<() => void>();
  private readonly maxBatchSize: number;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly context: EmbeddedConsumerContext,
    private readonly options: ConsumeOptions,
    private readonly onStopped: (consumer: EmbeddedConsumer) => void,
  ) {
    this.topics = [...new Set(options.topics)];
    this.maxBatchSize = options.maxBatchSize ?? context.defaultMaxBatchSize;
  }

  assign(partitions: readonly TopicPartition[]): void {
    this.owned = new Set(partitions.map(tpKey));
    if (!this.running) return;
    for (const tp of partitions) {
      const key = tpKey(tp);
      if (this.loops.has(key)) continue;
      const loop = this.runPartition(tp).finally(() => this.loops.delete(key));
      this.loops.set(key, loop);
    }
    this.wakeAll();
  }

  async seek(topic: string, partition: number, offset: string): Promise<void> {
    const row = this.context.topic(topic);
    if (partition < 0 || partition >= row.partitions)
      throw new RangeError(`${topic} has no partition ${partition}`);
    this.context.db.commit(this.options.groupId, row.id, partition, parseOffset(offset));
    // An in-flight batch must not commit over the new position when it finishes.
    this.context.coordinator.bumpGeneration(this.options.groupId, { topic, partition });
    this.wakeAll();
  }

  async committed(topic: string): Promise<ReadonlyMap<number, string>> {
    const row = this.context.topic(topic);
    const committed = this.context.db.committedAll(this.options.groupId, row.id);
    return new Map([...committed].map(([partition, offset]) => [partition, formatOffset(offset)]));
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.running = false;
      this.wakeAll();
      await Promise.all(this.loops.values());
      this.onStopped(this);
    })();
    return this.stopping;
  }

  private owns(tp: TopicPartition): boolean {
    return this.running && this.owned.has(tpKey(tp));
  }

  private async runPartition(tp: TopicPartition): Promise<void> {
    const log = { groupId: this.options.groupId, topic: tp.topic, partition: tp.partition };
    let backoff = this.context.retryInitialMs;
    while (this.owns(tp)) {
      let outcome: Outcome;
      try {
        outcome = await this.context.coordinator.withPartition(this.options.groupId, tp, () =>
          this.fetchAndHandle(tp),
        );
      } catch (error) {
        // Storage trouble (e.g. the file locked by another process for longer than busy_timeout): retry later.
        this.context.logger.error({ ...log, err: error }, 'event log read or commit failed');
        outcome = { kind: 'failed' };
      }
      if (outcome.kind === 'processed') {
        backoff = this.context.retryInitialMs;
        // A handler that never really waits (synchronous storage) would otherwise chain batch after batch
        // in microtasks while a backlog lasts, and starve this thread's macrotasks: the deferred commits'
        // flush (so the durable position, and the lag others read, would not move), timers, and messages
        // such as a stop or a memory report. One turn of the event loop per batch lets them run.
        await nextTurn();
      } else if (outcome.kind === 'failed') {
        this.context.logger.debug({ ...log, backoffMs: backoff }, 'redelivering after handler error');
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.context.retryMaxMs);
      } else if (outcome.kind === 'idle')
        await this.sleep(this.context.pollIntervalMs, tp.topic, outcome.seen);
    }
  }

  private async fetchAndHandle(tp: TopicPartition): Promise<Outcome> {
    if (!this.owns(tp)) return { kind: 'revoked' };
    const { db, coordinator, signals } = this.context;
    const { groupId } = this.options;
    const row = this.context.topic(tp.topic);
    const seen = signals.version(tp.topic);
    const position = db.committed(groupId, row.id, tp.partition) ?? db.earliestOffset(row.id, tp.partition);
    const stored = db.fetch(row.id, tp.partition, position, this.maxBatchSize);
    if (stored.length === 0) return { kind: 'idle', seen };
    const logStart = stored[0]?.offset ?? position;
    if (logStart > position) {
      // Retention deleted records this group never read (Kafka semantics): carry on from the log start,
      // as Kafka's auto.offset.reset=earliest does, and say what was lost.
      this.context.logger.warn(
        {
          groupId,
          topic: tp.topic,
          partition: tp.partition,
          committed: position,
          logStart,
          skipped: logStart - position,
        },
        'committed offset is below the log start (records deleted by retention); continuing from the log start',
      );
    }
    const records: LogRecord[] = stored.map((r) => ({
      topic: tp.topic,
      partition: tp.partition,
      offset: formatOffset(r.offset),
      key: r.key,
      value: r.value,
      headers: r.headers,
      timestamp: r.timestamp,
    }));
    const first = stored[0]?.offset ?? position;
    const end = (stored[stored.length - 1]?.offset ?? position) + 1;
    const generation = coordinator.generation(groupId, tp);
    const unmoved = () => coordinator.generation(groupId, tp) === generation;
    const batch: RecordBatch = {
      topic: tp.topic,
      partition: tp.partition,
      records,
      commit: async (nextOffset: string) => {
        const next = parseOffset(nextOffset);
        if (next < first || next > end) {
          throw new RangeError(`commit offset ${nextOffset} is outside the batch [${first}, ${end}]`);
        }
        if (unmoved()) db.commit(groupId, row.id, tp.partition, next);
      },
    };
    try {
      await this.options.handler(batch);
    } catch (error) {
      this.reportError(error, tp);
      return { kind: 'failed' };
    }
    if (unmoved()) {
      // Deferred: a consumer that produced (persistence) gets it written with its next batch's records.
      db.deferCommit(groupId, row.id, tp.partition, end);
      this.context.flushCommitsSoon();
    }
    return { kind: 'processed' };
  }

  private reportError(error: unknown, tp: TopicPartition): void {
    try {
      this.options.onError?.(error, tp);
    } catch (hookError) {
      this.context.logger.warn({ err: hookError, ...tp }, 'onError hook threw');
    }
    if (!this.options.onError) {
      this.context.logger.warn(
        { err: error, groupId: this.options.groupId, ...tp },
        'handler failed; redelivering',
      );
    }
  }

  /** Waits `ms`, or less: a produce on `topic` since version `seen`, a stop or a rebalance ends the wait. */
  private sleep(ms: number, topic?: string, seen?: number): Promise<void> {
    return new Promise((resolve) => {
      if (!this.running) return resolve();
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        if (topic !== undefined) this.context.signals.unsubscribe(topic, wake);
        resolve();
      };
      if (topic !== undefined && seen !== undefined && !this.context.signals.subscribe(topic, seen, wake)) {
        return resolve();
      }
      this.wakers.add(wake);
      // wake() only runs from the timer, a produce signal or wakeAll, all after this line.
      const timer = setTimeout(wake, ms);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }
}

function tpKey(tp: TopicPartition): string {
  return `${tp.topic}\u0000${tp.partition}`;
}
