import type { LogRecord, RecordBatch } from '@catalog/events';
import type { Logger } from 'pino';
import { isReplayForAnotherGroup, type DeadLetterSink } from './dead-letters.js';
import { classifyFailure, type ClassifiedFailure } from './failure-class.js';

/** Default of `<ROLE>_MAX_ATTEMPTS`: deliveries of a record failing for an unknown reason before it is dead-lettered. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** What a group is doing about failures, for readiness and the operations endpoints. */
export interface ConsumerFailureState {
  /** Set while a transient failure is being retried: since when, and why. */
  readonly retrying?: { readonly since: number; readonly reason: string };
  /** Records this process dead-lettered. */
  readonly deadLettered: number;
}

/**
 * Readiness of a consumer by its failure state: it throws, naming the reason, while a transient failure
 * is being retried (a dependency it needs is down: the group is not making progress).
 */
export function assertNotRetrying(state: ConsumerFailureState): void {
  if (!state.retrying) return;
  const since = new Date(state.retrying.since).toISOString();
  throw new Error(`retrying since ${since}: ${state.retrying.reason}`);
}

export interface FailurePolicyOptions {
  readonly groupId: string;
  readonly logger: Logger;
  readonly deadLetters: DeadLetterSink;
  /** Deliveries of a record that fails for an unknown reason before it is dead-lettered (≥ 1). */
  readonly maxAttempts?: number;
}

type BatchHandler = (batch: RecordBatch) => Promise<void>;

/**
 * One consumer group's failure policy around its batch handler (ARCHITECTURE: Errors). The batch is
 * tried whole; when it fails for a reason that is not transient, its records are tried one by one, in
 * order, so that only the record that fails is set aside:
 * - transient (a dependency down, a timeout): progress so far is committed and the error rethrown, so the
 *   consumer redelivers from the failing record after its backoff, as often as it takes;
 * - deterministic (the record can never be applied): the record goes to the dead-letter sink with the
 *   group, the error and the time, and the partition moves on;
 * - unknown: the record is redelivered until it has failed `maxAttempts` times, then dead-lettered.
 * A dead letter is logged (warn) and counted. Replayed records meant for another group are skipped.
 */
export class FailurePolicy {
  private readonly attempts = new Map<string, number>();
  private readonly maxAttempts: number;
  private retrying: ConsumerFailureState['retrying'];
  private deadLettered = 0;

  constructor(private readonly options: FailurePolicyOptions) {
    this.maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  }

  get state(): ConsumerFailureState {
    return { ...(this.retrying ? { retrying: this.retrying } : {}), deadLettered: this.deadLettered };
  }

  /** The handler to give the consumer. */
  wrap(handler: BatchHandler): BatchHandler {
    return async (batch) => {
      const records = batch.records.filter((r) => !isReplayForAnotherGroup(r.headers, this.options.groupId));
      if (records.length === 0) return;
      const first = records[0]!;
      // A record already failing is tried alone at once; otherwise the whole batch first.
      if (!this.attempts.has(keyOf(first))) {
        try {
          await handler(records.length === batch.records.length ? batch : subBatch(batch, records));
          this.recovered();
          return;
        } catch (error) {
          const failure = classifyFailure(error);
          if (failure.failureClass === 'transient') throw this.transient(error, failure, batch);
        }
      }
      for (const record of records) await this.one(handler, batch, record);
      this.recovered();
    };
  }

  private async one(handler: BatchHandler, batch: RecordBatch, record: LogRecord): Promise<void> {
    const key = keyOf(record);
    try {
      await handler(subBatch(batch, [record]));
      this.attempts.delete(key);
      return;
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.failureClass === 'transient') {
        await batch.commit(record.offset);
        throw this.transient(error, failure, batch);
      }
      const attempts = (this.attempts.get(key) ?? 0) + 1;
      if (failure.failureClass === 'unknown' && attempts < this.maxAttempts) {
        this.attempts.set(key, attempts);
        await batch.commit(record.offset);
        this.options.logger.error(
          { err: error, ...positionOf(record), attempts, maxAttempts: this.maxAttempts },
          'record failed for an unknown reason; it will be redelivered',
        );
        throw error;
      }
      this.attempts.delete(key);
      await this.options.deadLetters.write(record, {
        groupId: this.options.groupId,
        failureClass: failure.failureClass,
        reason: failure.reason,
        attempts,
        error,
      });
      this.deadLettered += 1;
      this.options.logger.warn(
        {
          ...positionOf(record),
          groupId: this.options.groupId,
          deadLetterTopic: this.options.deadLetters.topic,
          failureClass: failure.failureClass,
          reason: failure.reason,
          attempts,
        },
        'record dead-lettered; the partition moves on',
      );
    }
  }

  private transient(error: unknown, failure: ClassifiedFailure, batch: RecordBatch): unknown {
    this.retrying ??= { since: Date.now(), reason: failure.reason };
    this.options.logger.warn(
      { topic: batch.topic, partition: batch.partition, reason: failure.reason },
      'a dependency is unavailable; the batch will be retried',
    );
    return error;
  }

  private recovered(): void {
    if (this.retrying) {
      this.options.logger.info(
        { groupId: this.options.groupId, retryingForMs: Date.now() - this.retrying.since },
        'consumer recovered',
      );
    }
    this.retrying = undefined;
  }
}

function keyOf(record: LogRecord): string {
  return `${record.topic}/${record.partition}/${record.offset}`;
}

function positionOf(record: LogRecord): Record<string, unknown> {
  return { topic: record.topic, partition: record.partition, offset: record.offset, key: record.key };
}

function subBatch(batch: RecordBatch, records: readonly LogRecord[]): RecordBatch {
  return {
    topic: batch.topic,
    partition: batch.partition,
    records,
    commit: (nextOffset) => batch.commit(nextOffset),
  };
}
