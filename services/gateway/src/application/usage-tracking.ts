import type { RequestContext } from '@catalog/auth';
import type { EventLog } from '@catalog/events';
import { UnavailableError, ValidationError } from '@catalog/model';

/** Below this a numeric timestamp is taken as seconds (as the ecosystem's tracking service takes it). */
const MILLIS_FROM = 1e12;

/**
 * The web app's usage tracking (`POST /openapi/v1/tracking/track`, the ecosystem's TrackingController):
 * an event with a `type` is published as JSON on the usage-event topic (DataHubUsageEvent_v1), keyed by
 * the actor it names (else the caller), its `timestamp` made epoch milliseconds (seconds, ISO 8601 text
 * and numeric text are converted; absent: now), every other field as sent. Any authenticated caller may
 * track. A body that is not such an event is refused and nothing is published.
 */
export class UsageTracking {
  constructor(
    private readonly log: EventLog,
    private readonly topic: string,
    private readonly now: () => number = Date.now,
  ) {}

  async track(ctx: RequestContext, body: unknown): Promise<void> {
    const event = usageEventOf(body, this.now());
    const actor = typeof event['actorUrn'] === 'string' ? event['actorUrn'] : ctx.authentication.actorUrn;
    try {
      // The gateway creates the topic when it starts (composeGateway).
      await this.log.produce(this.topic, [{ key: actor, value: Buffer.from(JSON.stringify(event)) }]);
    } catch (error) {
      throw new UnavailableError('The usage event could not be recorded', { cause: error });
    }
  }
}

/** The event as published, or a ValidationError naming what is wrong with the body. */
export function usageEventOf(body: unknown, now: number): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError('The tracking event must be a JSON object');
  const event = { ...(body as Record<string, unknown>) };
  const type = event['type'];
  if (typeof type !== 'string' || type.trim() === '')
    throw new ValidationError('The tracking event needs a "type" (a non-empty string)');
  const actor = event['actorUrn'];
  if (actor !== undefined && actor !== null && typeof actor !== 'string')
    throw new ValidationError('The tracking event\'s "actorUrn" must be a string');
  event['timestamp'] = millisOf(event['timestamp'], now);
  const nested = event['event'];
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested) && 'timestamp' in nested)
    event['event'] = { ...(nested as Record<string, unknown>), timestamp: event['timestamp'] };
  return event;
}

function millisOf(value: unknown, now: number): number {
  if (value === undefined || value === null) return now;
  if (typeof value === 'number' && Number.isFinite(value)) return scaled(Math.trunc(value));
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^-?\d{1,16}$/.test(text)) return scaled(Number(text));
    const parsed = Date.parse(text);
    if (/^\d{4}-\d{2}-\d{2}T/.test(text) && Number.isFinite(parsed)) return parsed;
  }
  throw new ValidationError(
    'The tracking event\'s "timestamp" must be epoch milliseconds or seconds, or an ISO 8601 instant',
  );
}

function scaled(value: number): number {
  return value > MILLIS_FROM ? value : value * 1000;
}
