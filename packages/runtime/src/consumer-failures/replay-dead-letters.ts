import {
  decodeFailedMcp,
  encodeMcp,
  type EventLog,
  type LogRecord,
  type ProduceRecord,
} from '@catalog/events';
import type { Logger } from 'pino';
import { DEAD_LETTER_HEADERS, deadLetterTopicOf } from './dead-letters.js';

export interface ReplayOptions {
  readonly log: EventLog;
  /** The group whose dead letters are replayed; only it applies the replayed records. */
  readonly groupId: string;
  readonly deadLetterTopic: string;
  /**
   * 'proposals': the topic holds FailedMetadataChangeProposal events (the persistence group's), whose
   * proposal is produced again; 'records': the dead letters hold the original record as it was.
   */
  readonly format: 'proposals' | 'records';
  readonly logger: Logger;
  /** Gives up when the dead letters are not all read within this time. Default 5 minutes. */
  readonly timeoutMs?: number;
}

export interface ReplayResult {
  /** Dead letters produced again to their original topic, per topic. */
  readonly replayed: Readonly<Record<string, number>>;
  /** Records of the topic that are not this group's dead letters (other groups', the ecosystem's failed proposals). */
  readonly skipped: number;
  /** Dead letters whose value was too large to keep: they cannot be replayed, only reported. */
  readonly unrecoverable: number;
}

/** Thrown by the replay's handler once a batch passes the letters present when the replay began. */
class SnapshotReached extends Error {
  constructor() {
    super('the replay reached the dead letters present when it began');
    this.name = 'SnapshotReached';
  }
}

/** The group that remembers which dead letters of a group were replayed already. */
export function replayGroupOf(groupId: string): string {
  return `${groupId}-dead-letter-replay`;
}

/**
 * Produces a group's dead letters again to the topics they came from, after the cause is fixed, each
 * marked for that group alone (`deadLetter.replayFor`), with its original key and headers (so a
 * proposal keeps its request id and is applied at most once). Each dead letter is replayed once: the
 * replay's own consumer group commits what it produced, and a second run starts after it.
 */
export async function replayDeadLetters(options: ReplayOptions): Promise<ReplayResult> {
  const { log, groupId, deadLetterTopic } = options;
  await log.ensureTopics([{ name: deadLetterTopic }]);
  const replayed: Record<string, number> = {};
  let skipped = 0;
  let unrecoverable = 0;
  const replayGroup = replayGroupOf(groupId);
  // Only the letters present now: a replayed record that fails again becomes a new letter, for the next
  // replay, not this one (else a record that still cannot be applied would circle for ever).
  const snapshot = await log.lag(replayGroup, deadLetterTopic);
  const ends = new Map(snapshot.filter((p) => p.lag > 0).map((p) => [p.partition, BigInt(p.endOffset)]));
  if (ends.size === 0) return { replayed, skipped, unrecoverable };
  const consumer = await log.consume({
    groupId: replayGroup,
    topics: [deadLetterTopic],
    fromBeginning: true,
    handler: async (batch) => {
      const end = ends.get(batch.partition) ?? 0n;
      const letters = batch.records.filter((r) => BigInt(r.offset) < end);
      const byTopic = new Map<string, ProduceRecord[]>();
      for (const letter of letters) {
        const origin = letter.headers[DEAD_LETTER_HEADERS.topic];
        if (letter.headers[DEAD_LETTER_HEADERS.group] !== groupId || origin === undefined) {
          skipped += 1;
          continue;
        }
        if (letter.headers[DEAD_LETTER_HEADERS.valueOmitted] === 'true') {
          unrecoverable += 1;
          options.logger.warn(
            { offset: letter.offset, origin, originOffset: letter.headers[DEAD_LETTER_HEADERS.offset] },
            'dead letter without its value (it was too large) cannot be replayed',
          );
          continue;
        }
        const record = originalOf(letter, options.format, groupId);
        byTopic.set(origin, [...(byTopic.get(origin) ?? []), record]);
      }
      for (const [topic, records] of byTopic) {
        await log.produce(topic, records);
        replayed[topic] = (replayed[topic] ?? 0) + records.length;
      }
      if (letters.length < batch.records.length) {
        // Past the snapshot: commit up to it and leave the rest uncommitted for the next replay.
        await batch.commit(end.toString());
        throw new SnapshotReached();
      }
    },
    onError: () => undefined,
  });
  try {
    await consumer.ready;
    const deadline = Date.now() + (options.timeoutMs ?? 300_000);
    for (;;) {
      const lag = await log.lag(replayGroup, deadLetterTopic);
      const done = lag.every((p) => {
        const end = ends.get(p.partition);
        return end === undefined || (p.offset !== '-1' && BigInt(p.offset) >= end);
      });
      if (done) break;
      if (Date.now() > deadline) {
        throw new Error(`Replaying the dead letters of ${groupId} did not finish in time`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await consumer.stop();
  }
  const result = { replayed, skipped, unrecoverable };
  options.logger.info({ groupId, deadLetterTopic, ...result }, 'dead letters replayed');
  return result;
}

function originalOf(letter: LogRecord, format: ReplayOptions['format'], groupId: string): ProduceRecord {
  const headers = Object.fromEntries(
    Object.entries(letter.headers).filter(([name]) => !name.startsWith('deadLetter.')),
  );
  const value =
    format === 'proposals' ? encodeMcp(decodeFailedMcp(letter.value).metadataChangeProposal) : letter.value;
  return { key: letter.key, value, headers: { ...headers, [DEAD_LETTER_HEADERS.replayFor]: groupId } };
}

/** The consumer groups of a deployment, by role. */
export interface ConsumerGroupIds {
  readonly persistence: string;
  readonly indexer: string;
  readonly audit: string;
}

export interface DeadLetterTarget {
  readonly groupId: string;
  readonly deadLetterTopic: string;
  readonly format: ReplayOptions['format'];
}

/** The group of persistence's structured-property value removal (see startStructuredPropertyCleanup). */
export function cleanupGroupOf(persistenceGroup: string): string {
  return `${persistenceGroup}-structured-property-cleanup`;
}

/**
 * Which dead letters a name means: a role (`persistence`, `indexer`, `audit`,
 * `structured-property-cleanup`) or one of those groups' ids; undefined for anything else.
 */
export function deadLetterTargetOf(
  name: string,
  groups: ConsumerGroupIds,
  topics: { readonly failedMetadataChangeProposal: string },
): DeadLetterTarget | undefined {
  const cleanup = cleanupGroupOf(groups.persistence);
  if (name === 'persistence' || name === groups.persistence) {
    return {
      groupId: groups.persistence,
      deadLetterTopic: topics.failedMetadataChangeProposal,
      format: 'proposals',
    };
  }
  const groupId =
    name === 'indexer'
      ? groups.indexer
      : name === 'audit'
        ? groups.audit
        : name === 'structured-property-cleanup'
          ? cleanup
          : [groups.indexer, groups.audit, cleanup].find((g) => g === name);
  return groupId === undefined
    ? undefined
    : { groupId, deadLetterTopic: deadLetterTopicOf(groupId), format: 'records' };
}
