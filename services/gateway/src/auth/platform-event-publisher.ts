import { randomUUID } from 'node:crypto';
import { encodePlatformEvent, type EventLog } from '@catalog/events';
import type { Logger } from '@catalog/runtime';
import type { PlatformEventInput, PlatformEventPublisher } from './gateway-auth.js';

/**
 * Publishes identity events (logins, failed logins) as platform events on PlatformEvent_v1, keyed by
 * the actor: the event's `name` is its audit type and the JSON payload carries the actor, the origin of
 * the request (source IP, user agent, event source, trace id), the event's own fields and an event id
 * (the audit consumer's id for it, so a record published or delivered twice is one audit event). The
 * audit consumer turns them into audit events; identity changes (tokens, policies, users) reach it as
 * change logs instead, as in the ecosystem. A log that is down does not fail a login: the event is lost
 * and a warning says so.
 */
export class LogPlatformEventPublisher implements PlatformEventPublisher {
  constructor(
    private readonly log: EventLog,
    private readonly topic: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(event: PlatformEventInput): Promise<void> {
    const timestamp = this.now();
    const payload = {
      eventId: randomUUID(),
      type: event.name,
      timestamp,
      actorUrn: event.actorUrn,
      sourceIP: event.origin.sourceIp,
      userAgent: event.origin.userAgent,
      eventSource: event.origin.eventSource,
      traceId: event.origin.traceId,
      ...definedFields(event.fields ?? {}),
    };
    const value = encodePlatformEvent({
      header: { timestampMillis: timestamp },
      name: event.name,
      payload: { value: Buffer.from(JSON.stringify(payload)), contentType: 'application/json' },
    });
    try {
      await this.log.produce(this.topic, [{ key: event.actorUrn, value, timestamp }]);
    } catch (error) {
      this.logger.warn(
        { err: error, event: event.name, actor: event.actorUrn },
        'platform event not published',
      );
    }
  }
}

function definedFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
