import { createHash } from 'node:crypto';
import {
  decodeMcl,
  decodePlatformEvent,
  type LogRecord,
  type MetadataChangeLog,
  type PlatformEvent,
  type TopicNames,
} from '@catalog/events';
import { CHANGE_LOG_HEADERS, SYSTEM_ACTOR } from '@catalog/runtime';
import { validateAuditEvent, type AuditEvent } from '@catalog/search';
import { auditEventTypeOfChange, LOGIN_EVENT_TYPES } from './audit-event-types.js';

/** The event sources an audit event shows (spec 2.8); any other value stamped on a change is left out. */
export const AUDIT_EVENT_SOURCES: readonly string[] = ['RESTLI', 'OPENAPI', 'GRAPHQL', 'SSO_SCIM'];

/** What becomes of one record of a topic the audit consumer reads. */
export type AuditRecordResult =
  | { readonly kind: 'event'; readonly event: AuditEvent }
  /** Not an audit event (a platform event of another producer, a record of another topic). */
  | { readonly kind: 'ignored' }
  /** Decoded, but unusable as an audit event (e.g. a login payload that is not a JSON object). */
  | { readonly kind: 'invalid'; readonly reason: string }
  /** The record's bytes are not an event of its topic. */
  | { readonly kind: 'undecodable'; readonly error: unknown };

/**
 * The audit event of a record of a change-log topic (versioned or time-series) or of the platform
 * event topic; pure (decoding included), so a redelivered record gives the same event and id.
 */
export function auditEventOf(record: LogRecord, topics: TopicNames): AuditRecordResult {
  if (
    record.topic === topics.metadataChangeLogVersioned ||
    record.topic === topics.metadataChangeLogTimeseries
  ) {
    let mcl: MetadataChangeLog;
    try {
      mcl = decodeMcl(record.value);
    } catch (error) {
      return { kind: 'undecodable', error };
    }
    return checked(auditEventOfChangeLog(record, mcl));
  }
  if (record.topic === topics.platformEvent) {
    let platformEvent: PlatformEvent;
    try {
      platformEvent = decodePlatformEvent(record.value);
    } catch (error) {
      return { kind: 'undecodable', error };
    }
    const result = auditEventOfPlatformEvent(record, platformEvent);
    return result.kind === 'event' ? checked(result.event) : result;
  }
  return { kind: 'ignored' };
}

/**
 * The audit event of a change log. Its id derives from the request id header (the proposal that made
 * the change; else the record's position) and the entity, aspect and change type, so the same change
 * log, redelivered or produced again by persistence for the same proposal, is one event. Aspect values
 * are not kept (they can be large).
 */
export function auditEventOfChangeLog(record: LogRecord, mcl: MetadataChangeLog): AuditEvent {
  const requestId = record.headers[CHANGE_LOG_HEADERS.requestId];
  const origin = requestId !== undefined && requestId !== '' ? requestId : positionOf(record);
  const id = sha256([origin, mcl.entityUrn ?? '', mcl.aspectName ?? '', mcl.changeType]);
  const eventType = auditEventTypeOfChange(mcl.changeType, mcl.aspectName);
  const timestamp = safeInteger(mcl.created?.time) ?? record.timestamp;
  const actorUrn = nonEmpty(mcl.created?.actor) ?? SYSTEM_ACTOR;
  const properties = mcl.systemMetadata?.properties ?? {};
  const eventSource = eventSourceOf(properties['eventSource']);
  const sourceIP = nonEmpty(properties['sourceIP']);
  const telemetryTraceId = nonEmpty(properties['telemetryTraceId']);
  const userAgent = nonEmpty(record.headers[CHANGE_LOG_HEADERS.userAgent]);
  const optional = defined({
    entityUrn: nonEmpty(mcl.entityUrn),
    entityType: nonEmpty(mcl.entityType),
    aspectName: nonEmpty(mcl.aspectName),
    eventSource,
    sourceIP,
    userAgent,
  });
  return {
    id,
    eventType,
    timestamp,
    actorUrn,
    ...optional,
    ...(telemetryTraceId === undefined ? {} : { telemetryTraceId }),
    rawUsageEvent: {
      type: eventType,
      timestamp,
      actorUrn,
      ...optional,
      ...(telemetryTraceId === undefined ? {} : { traceId: telemetryTraceId }),
      usageSource: 'backend',
    },
  };
}

/**
 * The audit event of a platform event: a LogInEvent or FailedLogInEvent the gateway published (its
 * JSON payload holds the actor, origin and login fields); any other platform event is ignored. The id
 * is the payload's eventId, else derived from the record's position.
 */
export function auditEventOfPlatformEvent(
  record: LogRecord,
  platformEvent: PlatformEvent,
): Exclude<AuditRecordResult, { kind: 'undecodable' }> {
  const eventType = platformEvent.name;
  if (!(LOGIN_EVENT_TYPES as readonly string[]).includes(eventType)) return { kind: 'ignored' };
  let payload: unknown;
  try {
    payload = JSON.parse(platformEvent.payload.value.toString('utf8'));
  } catch {
    return { kind: 'invalid', reason: `${eventType} payload is not JSON` };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { kind: 'invalid', reason: `${eventType} payload is not a JSON object` };
  const fields = payload as Record<string, unknown>;
  const actorUrn = nonEmpty(fields['actorUrn']);
  if (actorUrn === undefined) return { kind: 'invalid', reason: `${eventType} payload has no actorUrn` };
  const id = nonEmpty(fields['eventId']) ?? sha256(['platformEvent', positionOf(record)]);
  const timestamp =
    safeInteger(fields['timestamp']) ?? safeInteger(platformEvent.header.timestampMillis) ?? record.timestamp;
  const telemetryTraceId = nonEmpty(fields['traceId']);
  return {
    kind: 'event',
    event: {
      id,
      eventType,
      timestamp,
      actorUrn,
      ...defined({
        sourceIP: nonEmpty(fields['sourceIP']),
        userAgent: nonEmpty(fields['userAgent']),
        eventSource: eventSourceOf(fields['eventSource']),
        loginSource: nonEmpty(fields['loginSource']),
        loginDenialReason: nonEmpty(fields['loginDenialReason']),
      }),
      ...(telemetryTraceId === undefined ? {} : { telemetryTraceId }),
      rawUsageEvent: { ...fields, usageSource: 'backend' },
    },
  };
}

/** An event the audit index would refuse is reported as invalid rather than failing its whole batch. */
function checked(event: AuditEvent): AuditRecordResult {
  try {
    validateAuditEvent(event);
  } catch (error) {
    return { kind: 'invalid', reason: error instanceof Error ? error.message : String(error) };
  }
  return { kind: 'event', event };
}

function positionOf(record: LogRecord): string {
  return `${record.topic}:${record.partition}:${record.offset}`;
}

function sha256(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function safeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function eventSourceOf(value: unknown): string | undefined {
  return typeof value === 'string' && AUDIT_EVENT_SOURCES.includes(value) ? value : undefined;
}

function defined<T extends Record<string, string | undefined>>(fields: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
    Record<keyof T, string>
  >;
}
