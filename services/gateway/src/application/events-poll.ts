import type { RequestContext } from '@catalog/auth';
import {
  decodeMcl,
  decodePlatformEvent,
  defaultTopicNames,
  eventAsAvroJson,
  type EventLog,
  type LogRecord,
  type PartitionOffsets,
  type TopicNames,
} from '@catalog/events';
import { ForbiddenError, isRestrictedAspect, ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { AccessPolicy } from './access-policy.js';

/** The ecosystem's bounds: more is clamped, not refused. */
export const EVENTS_POLL_MAX_LIMIT = 5_000;
export const EVENTS_POLL_DEFAULT_LIMIT = 100;
export const EVENTS_POLL_MAX_TIMEOUT_SECONDS = 60;
export const EVENTS_POLL_DEFAULT_TIMEOUT_SECONDS = 5;
const DAY_MS = 86_400_000;
/** The platform event the change-event producer writes: its payload names the entity. */
const ENTITY_CHANGE_EVENT = 'entityChangeEvent';
const JSON_CONTENT_TYPE = 'application/json';
/**
 * Platform events the gateway publishes for the audit consumer (who logged in, from where): audit
 * material, read through the audit search under its own privilege, not through the poll.
 */
const AUDIT_ONLY_EVENTS: ReadonlySet<string> = new Set(['LogInEvent', 'FailedLogInEvent']);

export interface EventsPollRequest {
  readonly topic: string;
  /** The opaque position a previous poll returned: base64 of {"<topic>-<partition>": nextOffset}. */
  readonly offsetId?: string;
  readonly limit?: number;
  readonly pollTimeoutSeconds?: number;
  /** Without an offsetId: start this many days back instead of at the end. */
  readonly lookbackWindowDays?: number;
}

export interface PolledEvent {
  readonly contentType: string;
  /** The record in Avro's JSON encoding, as text. */
  readonly value: string;
}

export interface PolledEvents {
  readonly offsetId: string;
  readonly count: number;
  readonly events: readonly PolledEvent[];
}

interface PollableTopic {
  /** The topic read (the configured name). */
  readonly name: string;
  readonly privilege: string;
  readonly kind: 'platformEvent' | 'metadataChangeLog';
}

/**
 * The events poll (the ecosystem's `GET /openapi/v1/events/poll`): the records of one topic after a
 * position, as JSON, with the position to continue from. The platform events need GET_PLATFORM_EVENTS;
 * the two change-log topics, which carry aspect values, GET_METADATA_CHANGE_LOG_EVENTS; any other topic
 * is refused like a missing privilege. Events about entities the actor may not read, and change logs of
 * restricted aspects, are left out (the position still moves past them).
 */
export class EventsPoll {
  private readonly pollable: ReadonlyMap<string, PollableTopic>;

  constructor(
    private readonly log: EventLog,
    topics: TopicNames,
    private readonly policy: AccessPolicy,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const platformEvents: PollableTopic = {
      name: topics.platformEvent,
      privilege: 'GET_PLATFORM_EVENTS',
      kind: 'platformEvent',
    };
    const changeLogs = (name: string): PollableTopic => ({
      name,
      privilege: 'GET_METADATA_CHANGE_LOG_EVENTS',
      kind: 'metadataChangeLog',
    });
    // The ecosystem's logical names reach the configured (physical) topics, as its topic convention does.
    this.pollable = new Map([
      [defaultTopicNames.platformEvent, platformEvents],
      [topics.platformEvent, platformEvents],
      [defaultTopicNames.metadataChangeLogVersioned, changeLogs(topics.metadataChangeLogVersioned)],
      [topics.metadataChangeLogVersioned, changeLogs(topics.metadataChangeLogVersioned)],
      [defaultTopicNames.metadataChangeLogTimeseries, changeLogs(topics.metadataChangeLogTimeseries)],
      [topics.metadataChangeLogTimeseries, changeLogs(topics.metadataChangeLogTimeseries)],
    ]);
  }

  /** `requestOf` reads the request once the actor is allowed the topic (refusals come first, as the ecosystem's). */
  async poll(ctx: RequestContext, asked: string, requestOf: () => EventsPollRequest): Promise<PolledEvents> {
    const pollable = this.pollable.get(asked);
    if (pollable === undefined) throw new ForbiddenError(`Events of ${asked} cannot be polled.`);
    const topic = pollable.name;
    await this.policy.pollEvents(ctx, pollable.privilege, topic);
    const request = requestOf();
    const limit = Math.min(request.limit ?? EVENTS_POLL_DEFAULT_LIMIT, EVENTS_POLL_MAX_LIMIT);
    const timeoutSeconds = Math.min(
      request.pollTimeoutSeconds ?? EVENTS_POLL_DEFAULT_TIMEOUT_SECONDS,
      EVENTS_POLL_MAX_TIMEOUT_SECONDS,
    );
    const partitions = await this.log.offsets(topic);
    const from = await this.startPositions(topic, partitions, request);
    const deadline = this.now() + timeoutSeconds * 1000;
    const next = new Map(from);
    const events: PolledEvent[] = [];
    // Records the actor may not see move the position but do not end the wait.
    do {
      const records = await this.log.read(topic, next, {
        maxRecords: limit - events.length,
        waitMs: Math.max(0, deadline - this.now()),
      });
      if (records.length === 0) break;
      for (const record of records) {
        const after = BigInt(record.offset) + 1n;
        if (after > BigInt(next.get(record.partition) ?? '0')) next.set(record.partition, after.toString());
      }
      events.push(...(await this.visible(ctx, pollable, records)));
    } while (events.length === 0 && this.now() < deadline);
    return { offsetId: encodeOffsetId(topic, next), count: events.length, events };
  }

  private async startPositions(
    topic: string,
    partitions: readonly PartitionOffsets[],
    request: EventsPollRequest,
  ): Promise<ReadonlyMap<number, string>> {
    if (request.offsetId !== undefined) {
      const decoded = decodeOffsetId(request.offsetId, topic);
      const unknown = [...decoded.keys()].filter((p) => !partitions.some((o) => o.partition === p));
      if (unknown.length > 0)
        throw new ValidationError(
          `offsetId names partition ${unknown.join(', ')} of ${topic}, which it does not have`,
        );
      // A partition the token does not name (added since) is read from its start.
      return new Map(partitions.map((p) => [p.partition, decoded.get(p.partition) ?? p.start]));
    }
    if (request.lookbackWindowDays !== undefined) {
      return this.log.offsetsForTime(topic, this.now() - request.lookbackWindowDays * DAY_MS);
    }
    return new Map(partitions.map((p) => [p.partition, p.end]));
  }

  /** The records as poll events, without those the actor may not see. */
  private async visible(
    ctx: RequestContext,
    topic: PollableTopic,
    records: readonly LogRecord[],
  ): Promise<PolledEvent[]> {
    const decoded: { readonly value: string; readonly entityUrn?: string }[] = [];
    for (const record of records) {
      try {
        decoded.push(this.decode(topic, record, ctx.authentication.isSystem));
      } catch (error) {
        this.logger.warn(
          { err: error, topic: record.topic, partition: record.partition, offset: record.offset },
          'a record that is not an event of its topic is left out of the poll',
        );
      }
    }
    const urns = [...new Set(decoded.flatMap((d) => (d.entityUrn === undefined ? [] : [d.entityUrn])))];
    const readable = new Set(await this.policy.readable(ctx, urns));
    return decoded
      .filter((d) => d.value !== '' && (d.entityUrn === undefined || readable.has(d.entityUrn)))
      .map((d) => ({ contentType: JSON_CONTENT_TYPE, value: d.value }));
  }

  /** A record's JSON and the entity it is about; an empty value for a record the actor never sees. */
  private decode(
    topic: PollableTopic,
    record: LogRecord,
    isSystem: boolean,
  ): { readonly value: string; readonly entityUrn?: string } {
    if (topic.kind === 'metadataChangeLog') {
      const mcl = decodeMcl(record.value);
      if (!isSystem && mcl.aspectName !== undefined && isRestrictedAspect(mcl.aspectName))
        return { value: '' };
      return { value: eventAsAvroJson('metadataChangeLog', record.value), ...entity(mcl.entityUrn) };
    }
    const event = decodePlatformEvent(record.value);
    if (!isSystem && AUDIT_ONLY_EVENTS.has(event.name)) return { value: '' };
    return { value: eventAsAvroJson('platformEvent', record.value), ...entity(entityOfPlatformEvent(event)) };
  }
}

function entity(urn: string | undefined): { readonly entityUrn?: string } {
  return urn === undefined || urn === '' ? {} : { entityUrn: urn };
}

function entityOfPlatformEvent(event: ReturnType<typeof decodePlatformEvent>): string | undefined {
  if (event.name !== ENTITY_CHANGE_EVENT) return undefined;
  const payload = JSON.parse(event.payload.value.toString('utf8')) as { entityUrn?: unknown };
  return typeof payload.entityUrn === 'string' ? payload.entityUrn : undefined;
}

/** The ecosystem's offset token: base64 of the JSON {"<topic>-<partition>": nextOffset}. */
export function encodeOffsetId(topic: string, positions: ReadonlyMap<number, string>): string {
  const json: Record<string, number | string> = {};
  for (const [partition, offset] of [...positions].sort(([a], [b]) => a - b)) {
    const n = Number(offset);
    json[`${topic}-${partition}`] = Number.isSafeInteger(n) ? n : offset;
  }
  return Buffer.from(JSON.stringify(json), 'utf8').toString('base64');
}

/** Reads an offset token of `topic`; anything else is a 400 naming the offsetId. */
export function decodeOffsetId(offsetId: string, topic: string): Map<number, string> {
  const invalid = (why: string) => new ValidationError(`Invalid offsetId: ${why}`);
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(offsetId)) throw invalid('not base64');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(offsetId, 'base64').toString('utf8'));
  } catch {
    throw invalid('not base64 of a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalid('not base64 of a JSON object');
  const out = new Map<number, string>();
  for (const [key, value] of Object.entries(parsed)) {
    const dash = key.lastIndexOf('-');
    const name = key.slice(0, Math.max(dash, 0));
    const partition = key.slice(dash + 1);
    if (dash < 0 || !/^\d+$/.test(partition)) throw invalid(`"${key}" is not <topic>-<partition>`);
    if (name !== topic) throw invalid(`"${key}" is a position of another topic than ${topic}`);
    const offset = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof offset !== 'string' || !/^\d+$/.test(offset))
      throw invalid(`the offset of "${key}" is not a non-negative integer`);
    out.set(Number(partition), offset);
  }
  return out;
}
