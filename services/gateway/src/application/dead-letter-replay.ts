import { ValidationError } from '@catalog/model';
import type { EventLog, TopicNames } from '@catalog/events';
import { deadLetterTargetOf, replayDeadLetters, type Logger } from '@catalog/runtime';
import type { ConsumerGroups } from './consumer-lag.js';

/**
 * Replays a consumer group's dead letters (the operations endpoint's `dead-letters/replay?group=`, a
 * group name: persistence, indexer, audit, structured-property-cleanup, or a group id): produces the group's dead letters again to the topics they came from, for that group
 * alone, once the cause is fixed; answers what was replayed. Each dead letter is replayed once (a second
 * call replays only letters added since).
 */
export async function replayDeadLettersOperation(
  name: string | undefined,
  deps: { log: EventLog; topics: TopicNames; groups: ConsumerGroups; logger: Logger },
): Promise<Record<string, unknown>> {
  const target = name === undefined ? undefined : deadLetterTargetOf(name, deps.groups, deps.topics);
  if (!target) {
    throw new ValidationError(
      `Unknown consumer group ${JSON.stringify(name ?? null)}; expected persistence, indexer, audit, ` +
        `structured-property-cleanup or one of the groups ${Object.values(deps.groups).join(', ')}`,
    );
  }
  const result = await replayDeadLetters({ log: deps.log, ...target, logger: deps.logger });
  return { group: target.groupId, deadLetterTopic: target.deadLetterTopic, ...result };
}
