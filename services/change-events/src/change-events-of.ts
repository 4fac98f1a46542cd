import { createHash } from 'node:crypto';
import {
  decodeMcl,
  genericAspectToJson,
  type GenericAspect,
  type LogRecord,
  type MetadataChangeLog,
  type PlatformEvent,
} from '@catalog/events';
import { aspectChangeEvents } from '@catalog/model';
import { CHANGE_LOG_HEADERS, SYSTEM_ACTOR } from '@catalog/runtime';
import { entityChangeEventOf, platformEventOf, type EntityChangeEvent } from './entity-change-event.js';

/** The record header holding a produced change event's id (the same id for the same semantic change). */
export const CHANGE_EVENT_ID_HEADER = 'eventId';

/** One entity change event to produce. */
export interface ProducibleChangeEvent {
  /** Derived from the change log's identity and the event's index in it: stable under redelivery. */
  readonly id: string;
  /** The changed entity's urn (the change log's key): one entity's events keep the log's order. */
  readonly key: string;
  readonly event: EntityChangeEvent;
  readonly platformEvent: PlatformEvent;
}

export type ChangeEventsResult =
  | { readonly kind: 'events'; readonly events: readonly ProducibleChangeEvent[] }
  /** The change log cannot be diffed (undecodable, a value that is not JSON, a diff that failed). */
  | { readonly kind: 'unprocessable'; readonly reason: string; readonly cause?: unknown };

/** The change types whose change logs carry semantic changes (the ecosystem's CREATE, UPSERT, DELETE). */
const DIFFED_CHANGE_TYPES = new Set(['CREATE', 'UPSERT', 'DELETE']);

/**
 * The entity change events of one record of the versioned change-log topic, computed with the
 * timeline's own diff (`aspectChangeEvents`) between the log's previous and new aspect values. Pure: a
 * redelivered record, or the same change log produced again by persistence for the same proposal,
 * gives the same events with the same ids.
 */
export function changeEventsOf(record: LogRecord): ChangeEventsResult {
  let mcl: MetadataChangeLog;
  try {
    mcl = decodeMcl(record.value);
  } catch (cause) {
    return { kind: 'unprocessable', reason: `undecodable change log: ${String(cause)}`, cause };
  }
  if (!DIFFED_CHANGE_TYPES.has(mcl.changeType) || !mcl.aspectName || !mcl.entityUrn) {
    return { kind: 'events', events: [] };
  }
  const entityUrn = mcl.entityUrn;
  const aspectName = mcl.aspectName;
  try {
    const auditStamp = {
      time: safeTime(mcl.created?.time) ?? record.timestamp,
      actor: mcl.created?.actor || SYSTEM_ACTOR,
      ...(mcl.created?.impersonator ? { impersonator: mcl.created.impersonator } : {}),
    };
    const changes = aspectChangeEvents({
      entityUrn,
      aspect: aspectName,
      previous: jsonOf(mcl.previousAspectValue),
      current: mcl.changeType === 'DELETE' ? undefined : jsonOf(mcl.aspect),
      auditStamp,
    });
    const origin = changeLogIdentity(record, mcl);
    const events = changes.map((change, index): ProducibleChangeEvent => {
      const event = entityChangeEventOf(change, auditStamp);
      return {
        id: sha256([origin, String(index)]),
        key: entityUrn,
        event,
        platformEvent: platformEventOf(event),
      };
    });
    return { kind: 'events', events };
  } catch (cause) {
    return {
      kind: 'unprocessable',
      reason: `change log of ${aspectName} on ${entityUrn} cannot be diffed: ${String(cause)}`,
      cause,
    };
  }
}

/**
 * What makes a change log the same change: the proposal that made it (its request id; else the record's
 * position), the entity, aspect and change type, and the aspect's new version when the log says it.
 */
function changeLogIdentity(record: LogRecord, mcl: MetadataChangeLog): string {
  const requestId = record.headers[CHANGE_LOG_HEADERS.requestId];
  const origin =
    requestId !== undefined && requestId !== ''
      ? requestId
      : `${record.topic}/${record.partition}/${record.offset}`;
  return [origin, mcl.entityUrn ?? '', mcl.aspectName ?? '', mcl.changeType].join('\u0000');
}

function jsonOf(aspect: GenericAspect | undefined): Readonly<Record<string, unknown>> | undefined {
  if (aspect === undefined) return undefined;
  const value = genericAspectToJson(aspect);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError('the aspect value is not a JSON object');
  return value as Readonly<Record<string, unknown>>;
}

function safeTime(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function sha256(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0001')).digest('hex');
}
