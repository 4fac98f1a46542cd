import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { EventLog, TopicNames } from '@catalog/events';
import { deadLetterTargetOf, replayDeadLetters, type Logger } from '@catalog/runtime';
import type { ConsumerGroups } from './consumer-lag.js';

/**
 * POST /openapi/operations/dead-letters/replay?group=<persistence|indexer|audit|structured-property-cleanup
 * or a group id>: produces the group's dead letters again to the topics they came from, for that group
 * alone, once the cause is fixed; answers what was replayed. Each dead letter is replayed once (a second
 * call replays only letters added since).
 */
export async function replayDeadLettersOperation(
  req: Request,
  res: Response,
  deps: { log: EventLog; topics: TopicNames; groups: ConsumerGroups; logger: Logger },
): Promise<void> {
  const name = req.query['group'];
  const target = typeof name === 'string' ? deadLetterTargetOf(name, deps.groups, deps.topics) : undefined;
  if (!target) {
    throw new ValidationError(
      `Unknown consumer group ${JSON.stringify(name ?? null)}; expected persistence, indexer, audit, ` +
        `structured-property-cleanup or one of the groups ${Object.values(deps.groups).join(', ')}`,
    );
  }
  const result = await replayDeadLetters({ log: deps.log, ...target, logger: deps.logger });
  res.json({ group: target.groupId, deadLetterTopic: target.deadLetterTopic, ...result });
}
