import type { Consumer, EventLog, LogRecord, TopicNames } from '@catalog/events';
import {
  deadLetterTopicOf,
  FailurePolicy,
  recordDeadLetters,
  UnprocessableRecordError,
  type ConsumerFailureState,
  type Logger,
} from '@catalog/runtime';
import type { AuditEvent, AuditIndex } from '@catalog/search';
import { auditEventOf } from './audit-events-of.js';

export interface AuditConsumerDeps {
  readonly log: EventLog;
  readonly audit: AuditIndex;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  readonly maxBatchSize: number;
  /** How long a read may wait for a fuller batch (ConsumeOptions.batchWaitMs). Default 0. */
  readonly batchWaitMs?: number;
  /** The event types recorded (default: every type); the others are dropped. */
  readonly recordedEventTypes?: ReadonlySet<string>;
  /** Actors whose events are dropped (ANALYTICS_USER_FILTERS; default none). */
  readonly actorFilters?: ReadonlySet<string>;
  /** How often retention drops expired days (default 1 hour); it also runs at start. */
  readonly retentionIntervalMs?: number;
  /** Deliveries of a record failing for an unknown reason before it is dead-lettered (default 5). */
  readonly maxAttempts?: number;
}

export interface AuditConsumer {
  readonly ready: Promise<void>;
  /** The consumer's failure state (retrying a dependency, dead letters so far). */
  failures(): ConsumerFailureState;
  stop(): Promise<void>;
}

const DEFAULT_RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The audit consumer: change logs (versioned and time-series) and the gateway's login platform events
 * become audit events, one write to the audit index per batch, committed after the write returns (a
 * failed write is redelivered; ids derive from the source records, so a redelivery or a replay from
 * the start under a new group writes the same events again, not new ones). An undecodable record or
 * an unusable login payload goes to the group's dead-letter topic (see FailurePolicy), as does one the
 * index refuses. Retention runs at start and every `retentionIntervalMs`.
 */
export async function startAuditConsumer(deps: AuditConsumerDeps): Promise<AuditConsumer> {
  const { log, audit, topics, logger } = deps;
  await log.ensureTopics([
    { name: topics.metadataChangeLogVersioned },
    { name: topics.metadataChangeLogTimeseries },
    { name: topics.platformEvent },
    { name: deadLetterTopicOf(deps.groupId) },
  ]);
  await audit.ensure();

  let retaining: Promise<void> | undefined;
  const retain = (): void => {
    if (retaining) return;
    retaining = audit
      .applyRetention()
      .then(
        (dropped) => {
          if (dropped > 0) logger.info({ dropped }, 'expired audit days dropped');
        },
        (error: unknown) => logger.warn({ err: error }, 'audit retention failed; it runs again later'),
      )
      .finally(() => {
        retaining = undefined;
      });
  };
  retain();
  const timer = setInterval(retain, deps.retentionIntervalMs ?? DEFAULT_RETENTION_INTERVAL_MS);
  timer.unref();

  const policy = new FailurePolicy({
    groupId: deps.groupId,
    logger,
    deadLetters: recordDeadLetters(log, deps.groupId),
    ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
  });
  let consumer: Consumer;
  try {
    consumer = await log.consume({
      groupId: deps.groupId,
      topics: [topics.metadataChangeLogVersioned, topics.metadataChangeLogTimeseries, topics.platformEvent],
      fromBeginning: true,
      maxBatchSize: deps.maxBatchSize,
      ...(deps.batchWaitMs ? { batchWaitMs: deps.batchWaitMs } : {}),
      handler: policy.wrap(async (batch) => {
        const events = recordedEvents(batch.records, deps);
        if (events.length > 0) await audit.write(events);
      }),
      onError: (error, where) =>
        logger.error({ err: error, ...where }, 'audit batch failed; it will be redelivered'),
    });
  } catch (error) {
    clearInterval(timer);
    await retaining;
    throw error;
  }
  return {
    ready: consumer.ready,
    failures: () => policy.state,
    stop: async () => {
      clearInterval(timer);
      await consumer.stop();
      await retaining;
    },
  };
}

/** The batch's audit events that pass the type and actor filters; a record that cannot be one throws. */
function recordedEvents(records: readonly LogRecord[], deps: AuditConsumerDeps): AuditEvent[] {
  const { topics, recordedEventTypes, actorFilters } = deps;
  const out: AuditEvent[] = [];
  for (const record of records) {
    const result = auditEventOf(record, topics);
    switch (result.kind) {
      case 'undecodable':
        throw new UnprocessableRecordError(`Undecodable record: ${String(result.error)}`, {
          cause: result.error,
        });
      case 'invalid':
        throw new UnprocessableRecordError(`Not a usable audit event: ${result.reason}`);
      case 'ignored':
        break;
      case 'event': {
        const { event } = result;
        if (recordedEventTypes && !recordedEventTypes.has(event.eventType)) break;
        if (actorFilters?.has(event.actorUrn)) break;
        out.push(event);
        break;
      }
    }
  }
  return out;
}
