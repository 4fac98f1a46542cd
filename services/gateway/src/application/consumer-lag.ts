import { ValidationError } from '@catalog/model';
import type { EventLog, TopicNames } from '@catalog/events';
import { deadLetterTopicOf, processMemory, replayGroupOf, type ThreadMemory } from '@catalog/runtime';

export interface ConsumerGroups {
  readonly persistence: string;
  readonly indexer: string;
  readonly audit: string;
}

/** Which consumer group reads which topics, by the ecosystem's endpoint names. */
function watched(
  kind: string,
  topics: TopicNames,
  groups: ConsumerGroups,
): { group: string; topics: readonly string[]; deadLetterTopic: string } | undefined {
  switch (kind) {
    case 'mcp':
      return {
        group: groups.persistence,
        topics: [topics.metadataChangeProposal],
        deadLetterTopic: topics.failedMetadataChangeProposal,
      };
    case 'mcl':
      return {
        group: groups.indexer,
        topics: [topics.metadataChangeLogVersioned],
        deadLetterTopic: deadLetterTopicOf(groups.indexer),
      };
    case 'mcl-timeseries':
      return {
        group: groups.indexer,
        topics: [topics.metadataChangeLogTimeseries],
        deadLetterTopic: deadLetterTopicOf(groups.indexer),
      };
    case 'usage-events':
      // The audit consumer: what it still has to read of everything it turns into audit events.
      return {
        group: groups.audit,
        topics: [topics.metadataChangeLogVersioned, topics.metadataChangeLogTimeseries, topics.platformEvent],
        deadLetterTopic: deadLetterTopicOf(groups.audit),
      };
    default:
      return undefined;
  }
}

/**
 * The lag of a consumer group (the operations endpoint's `messaging/{kind}/consumer/lag`): the shape the ecosystem's clients poll to wait for the pipeline: consumerGroups → topic →
 * metrics.totalLag, and with `detailed` the committed offset and lag per partition; beside it (ours),
 * the group's dead letters and the memory of the process answering (bytes): in the all-in-one catalog
 * that is the whole catalog, its consumer threads included (each thread's heap listed under `threads`),
 * so whoever polls for the lag sees what the work costs in memory as it goes.
 */
export async function consumerLag(
  kind: string,
  detailed: boolean,
  deps: {
    log: EventLog;
    topics: TopicNames;
    groups: ConsumerGroups;
    /** The process's other threads (see processMemory): listed with this one under memory.threads. */
    threads?: () => Promise<readonly ThreadMemory[]>;
  },
): Promise<Record<string, unknown>> {
  const target = watched(kind, deps.topics, deps.groups);
  if (!target)
    throw new ValidationError(
      `Unknown consumer kind ${kind}; expected mcp, mcl, mcl-timeseries or usage-events`,
    );
  const perTopic: Record<string, unknown> = {};
  for (const topic of target.topics) {
    const lag = await deps.log.lag(target.group, topic);
    const totalLag = lag.reduce((sum, p) => sum + p.lag, 0);
    const maxLag = lag.reduce((max, p) => Math.max(max, p.lag), 0);
    perTopic[topic] = {
      metrics: { totalLag, maxLag },
      ...(detailed
        ? {
            partitions: Object.fromEntries(
              lag.map((p) => [String(p.partition), { offset: Number(p.offset), lag: p.lag }]),
            ),
          }
        : {}),
    };
  }
  return {
    consumerGroups: { [target.group]: perTopic },
    deadLetters: await deadLetterCounts(deps.log, target.group, target.deadLetterTopic),
    memory: await processMemory(deps.threads),
  };
}

/**
 * The group's dead letters: how many records its dead-letter topic holds (for persistence, the
 * FailedMetadataChangeProposal topic, where rejected proposals go too) and how many of them the replay
 * command has not produced again yet.
 */
async function deadLetterCounts(
  log: EventLog,
  group: string,
  topic: string,
): Promise<{ topic: string; records: number; notReplayed: number }> {
  await log.ensureTopics([{ name: topic }]);
  const lag = await log.lag(replayGroupOf(group), topic);
  return {
    topic,
    records: lag.reduce((sum, p) => sum + Number(p.endOffset), 0),
    notReplayed: lag.reduce((sum, p) => sum + p.lag, 0),
  };
}
