import {
  encodePlatformEvent,
  type Consumer,
  type EventLog,
  type LogRecord,
  type TopicNames,
} from '@catalog/events';
import {
  deadLetterTopicOf,
  FailurePolicy,
  recordDeadLetters,
  UnprocessableRecordError,
  type ConsumerFailureState,
  type Logger,
} from '@catalog/runtime';
import { CHANGE_EVENT_ID_HEADER, changeEventsOf, type ProducibleChangeEvent } from './change-events-of.js';
import { ProducedEvents } from './produced-events.js';

export interface ChangeEventProducerDeps {
  readonly log: EventLog;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  readonly maxBatchSize: number;
  /** How long a read may wait for a fuller batch (ConsumeOptions.batchWaitMs). Default 0. */
  readonly batchWaitMs?: number;
  /** Deliveries of a record failing for an unknown reason before it is dead-lettered (default 5). */
  readonly maxAttempts?: number;
  /** Change event ids remembered to drop a change log delivered again (default 100,000). */
  readonly rememberedEvents?: number;
}

export interface ChangeEventProducer {
  readonly ready: Promise<void>;
  failures(): ConsumerFailureState;
  stop(): Promise<void>;
}

/**
 * How far before a change log's own timestamp its events may have been produced by another process
 * whose clock runs ahead: the window read back when learning what was produced already.
 */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * The entity change event producer: each change log (versioned, and time-series for assertion runs) becomes the ecosystem's entity change
 * events (the timeline's diff of its previous and new value), produced on the platform-event topic keyed
 * by the entity's urn, one batch's events in one produce, committed after the produce is acknowledged.
 * Exactly one event per change: every event carries an id derived from its change log (see
 * changeEventsOf), and an id already on the topic is not produced again. Ids this run produced are
 * remembered; after a start, a failure or a partition this member had not been reading (a rebalance),
 * the topic's recent records are read first to learn what an earlier run produced before it died. A
 * change log that cannot be diffed goes to the group's dead-letter topic; the partition moves on.
 */
export async function startChangeEventProducer(deps: ChangeEventProducerDeps): Promise<ChangeEventProducer> {
  const { log, topics, logger } = deps;
  await log.ensureTopics([
    { name: topics.metadataChangeLogVersioned },
    { name: topics.metadataChangeLogTimeseries },
    { name: topics.platformEvent },
    { name: deadLetterTopicOf(deps.groupId) },
  ]);
  const produced = new ProducedEvents(log, topics.platformEvent, deps.rememberedEvents ?? 100_000);
  /** Per topic partition, the offset after the last batch this run finished: a batch elsewhere is not a continuation. */
  const continuing = new Map<string, string>();
  const partitionOf = (batch: { topic: string; partition: number }) =>
    `${batch.topic}\u0000${batch.partition}`;
  const policy = new FailurePolicy({
    groupId: deps.groupId,
    logger,
    deadLetters: recordDeadLetters(log, deps.groupId),
    ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
  });
  const consumer: Consumer = await log.consume({
    groupId: deps.groupId,
    topics: [topics.metadataChangeLogVersioned, topics.metadataChangeLogTimeseries],
    fromBeginning: true,
    maxBatchSize: deps.maxBatchSize,
    ...(deps.batchWaitMs ? { batchWaitMs: deps.batchWaitMs } : {}),
    handler: policy.wrap(async (batch) => {
      const first = batch.records[0];
      if (first === undefined) return;
      try {
        if (continuing.get(partitionOf(batch)) !== first.offset) {
          const since = Math.min(...batch.records.map((r) => r.timestamp)) - CLOCK_SKEW_MS;
          const learnt = await produced.learnSince(since);
          logger.debug(
            { partition: batch.partition, since, learnt },
            'learnt the change events already produced',
          );
        }
        const events = changeEventsOfBatch(batch.records).filter((e) => !produced.has(e.id));
        if (events.length > 0) {
          await log.produce(
            topics.platformEvent,
            events.map((e) => ({
              key: e.key,
              value: encodePlatformEvent(e.platformEvent),
              headers: { [CHANGE_EVENT_ID_HEADER]: e.id },
            })),
          );
          for (const e of events) produced.add(e.id);
        }
        const last = batch.records[batch.records.length - 1]!;
        continuing.set(partitionOf(batch), (BigInt(last.offset) + 1n).toString());
      } catch (error) {
        // Whatever was produced before the failure is learnt again before the redelivery is processed.
        continuing.delete(partitionOf(batch));
        throw error;
      }
    }),
    onError: (error, where) =>
      logger.error({ err: error, ...where }, 'change event batch failed; it will be redelivered'),
  });
  return {
    ready: consumer.ready,
    failures: () => policy.state,
    stop: () => consumer.stop(),
  };
}

/** The batch's change events in log order; a change log that cannot be diffed throws (dead-lettered alone). */
function changeEventsOfBatch(records: readonly LogRecord[]): ProducibleChangeEvent[] {
  const out: ProducibleChangeEvent[] = [];
  for (const record of records) {
    const result = changeEventsOf(record);
    if (result.kind === 'unprocessable')
      throw new UnprocessableRecordError(result.reason, { cause: result.cause });
    out.push(...result.events);
  }
  return out;
}
