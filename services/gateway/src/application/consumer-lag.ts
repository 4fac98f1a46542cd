import { ValidationError } from '@catalog/model';
import type { EventLog, TopicNames } from '@catalog/events';
import { deadLetterTopicOf, processMemory, replayGroupOf, type ThreadMemory } from '@catalog/runtime';

export interface ConsumerGroups {
  readonly persistence: string;
  readonly indexer: string;
  readonly audit: string;
}

/**
 * The ecosystem's names of the consumers that play our consumers' parts (its defaults of
 * METADATA_CHANGE_PROPOSAL_KAFKA_CONSUMER_GROUP_ID, METADATA_CHANGE_LOG_KAFKA_CONSUMER_GROUP_ID and
 * DATAHUB_USAGE_EVENT_KAFKA_CONSUMER_GROUP_ID). Its clients wait on a group by these names (the
 * smoke suite waits on `datahub-usage-event-consumer-job-client`), so the lag operation and the
 * metrics report each of our groups under its counterpart's name and list our group id beside it.
 */
export const ECOSYSTEM_CONSUMER_NAMES: Readonly<Record<keyof ConsumerGroups, string>> = {
  persistence: 'generic-mce-consumer-job-client',
  indexer: 'generic-mae-consumer-job-client',
  audit: 'datahub-usage-event-consumer-job-client',
};

/** Which consumer group reads which topics, by the ecosystem's endpoint names. */
function watched(
  kind: string,
  topics: TopicNames,
  groups: ConsumerGroups,
):
  | { role: keyof ConsumerGroups; group: string; topics: readonly string[]; deadLetterTopic: string }
  | undefined {
  switch (kind) {
    case 'mcp':
      return {
        role: 'persistence',
        group: groups.persistence,
        topics: [topics.metadataChangeProposal],
        deadLetterTopic: topics.failedMetadataChangeProposal,
      };
    case 'mcl':
      return {
        role: 'indexer',
        group: groups.indexer,
        topics: [topics.metadataChangeLogVersioned],
        deadLetterTopic: deadLetterTopicOf(groups.indexer),
      };
    case 'mcl-timeseries':
      return {
        role: 'indexer',
        group: groups.indexer,
        topics: [topics.metadataChangeLogTimeseries],
        deadLetterTopic: deadLetterTopicOf(groups.indexer),
      };
    case 'usage-events':
      // The audit consumer: what it still has to read of everything it turns into audit events.
      return {
        role: 'audit',
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
 * metrics.totalLag, and with `detailed` the committed offset and lag per partition, the group named as the
 * ecosystem names its counterpart (ECOSYSTEM_CONSUMER_NAMES); beside it (ours), `groupIds` (that name →
 * our group id, the one the event log knows),
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
  const name = ECOSYSTEM_CONSUMER_NAMES[target.role];
  return {
    consumerGroups: { [name]: perTopic },
    groupIds: { [name]: target.group },
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

/**
 * Every consumer group's lag per topic, for the metrics (`messaging_consumer_lag_records`): the groups
 * of mcp, mcl, mcl-timeseries and usage-events, each under its ecosystem name with our group id beside.
 */
export async function consumerLagSamples(deps: {
  log: EventLog;
  topics: TopicNames;
  groups: ConsumerGroups;
}): Promise<{ consumerGroup: string; groupId: string; topic: string; lag: number }[]> {
  const seen = new Set<string>();
  const samples: { consumerGroup: string; groupId: string; topic: string; lag: number }[] = [];
  for (const kind of ['mcp', 'mcl', 'mcl-timeseries', 'usage-events']) {
    const target = watched(kind, deps.topics, deps.groups)!;
    for (const topic of target.topics) {
      const key = `${target.group}\u0000${topic}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const lag = await deps.log.lag(target.group, topic);
      samples.push({
        consumerGroup: ECOSYSTEM_CONSUMER_NAMES[target.role],
        groupId: target.group,
        topic,
        lag: lag.reduce((sum, p) => sum + p.lag, 0),
      });
    }
  }
  return samples;
}
