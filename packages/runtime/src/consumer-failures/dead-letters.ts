import {
  RecordTooLargeError,
  type EventLog,
  type LogRecord,
  type ProduceRecord,
  type RecordHeaders,
} from '@catalog/events';
import type { FailureClass } from './failure-class.js';

/**
 * Headers of a dead letter: where the record came from, which group gave up on it, why and when. The
 * record's own key, value and headers are kept as they were, so a replay can produce it again (the idea
 * and most of the names are Kafka Connect's `errors.deadletterqueue.context.headers.enable`).
 */
export const DEAD_LETTER_HEADERS = {
  group: 'deadLetter.group',
  topic: 'deadLetter.topic',
  partition: 'deadLetter.partition',
  offset: 'deadLetter.offset',
  failureClass: 'deadLetter.class',
  error: 'deadLetter.error',
  attempts: 'deadLetter.attempts',
  time: 'deadLetter.time',
  /** Set when the original value did not fit beside the headers and was left out. */
  valueOmitted: 'deadLetter.valueOmitted',
  /**
   * On a replayed record: the only group that applies it. Every other group reading the topic skips it
   * (it applied the record the first time).
   */
  replayFor: 'deadLetter.replayFor',
} as const;

/** Why a record was dead-lettered. */
export interface DeadLetterReason {
  readonly groupId: string;
  readonly failureClass: Exclude<FailureClass, 'transient'>;
  readonly reason: string;
  readonly attempts: number;
  /** The error of the last attempt. */
  readonly error: unknown;
}

/** Where a consumer's dead letters go: it must resolve only once the dead letter is durable. */
export interface DeadLetterSink {
  readonly topic: string;
  write(record: LogRecord, why: DeadLetterReason): Promise<void>;
}

/**
 * The dead-letter topic of a consumer group that reads change logs or platform events:
 * `DeadLetter_<group>_v1` (characters Kafka does not allow in a topic name become `_`). Proposals have
 * the ecosystem's FailedMetadataChangeProposal_v1 instead.
 */
export function deadLetterTopicOf(groupId: string): string {
  return `DeadLetter_${groupId.replace(/[^a-zA-Z0-9._-]/g, '_')}_v1`;
}

/** The dead-letter headers for a record: its own headers (minus an earlier replay mark) and the context. */
export function deadLetterHeaders(record: LogRecord, why: DeadLetterReason): Record<string, string> {
  const own = Object.fromEntries(
    Object.entries(record.headers).filter(([name]) => !name.startsWith('deadLetter.')),
  );
  return {
    ...own,
    [DEAD_LETTER_HEADERS.group]: why.groupId,
    [DEAD_LETTER_HEADERS.topic]: record.topic,
    [DEAD_LETTER_HEADERS.partition]: String(record.partition),
    [DEAD_LETTER_HEADERS.offset]: record.offset,
    [DEAD_LETTER_HEADERS.failureClass]: why.failureClass,
    [DEAD_LETTER_HEADERS.error]: why.reason,
    [DEAD_LETTER_HEADERS.attempts]: String(why.attempts),
    [DEAD_LETTER_HEADERS.time]: new Date().toISOString(),
  };
}

/**
 * Produces a dead letter; when the original value does not fit in the log beside the context headers
 * (it was at the limit already), the value is left out and the letter says so, rather than losing the
 * record's trace.
 */
export async function produceDeadLetter(log: EventLog, topic: string, letter: ProduceRecord): Promise<void> {
  try {
    await log.produce(topic, [letter]);
  } catch (error) {
    if (!(error instanceof RecordTooLargeError)) throw error;
    await log.produce(topic, [
      {
        key: letter.key,
        value: Buffer.alloc(0),
        headers: { ...letter.headers, [DEAD_LETTER_HEADERS.valueOmitted]: 'true' },
      },
    ]);
  }
}

/** The sink of a change-log group: the record as it was, with the context headers. */
export function recordDeadLetters(
  log: EventLog,
  groupId: string,
  topic = deadLetterTopicOf(groupId),
): DeadLetterSink {
  return {
    topic,
    write: (record, why) =>
      produceDeadLetter(log, topic, {
        key: record.key,
        value: record.value,
        headers: deadLetterHeaders(record, why),
      }),
  };
}

/** True when the record is a replay meant for another group (which alone applies it). */
export function isReplayForAnotherGroup(headers: RecordHeaders, groupId: string): boolean {
  const target = headers[DEAD_LETTER_HEADERS.replayFor];
  return target !== undefined && target !== groupId;
}
