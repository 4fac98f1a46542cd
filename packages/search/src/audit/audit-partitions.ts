import { compareCodePoints } from '../sort-values.js';
import type { AuditCursor, AuditEvent, AuditQuery } from './audit-index.js';

export const DAY_MS = 86_400_000;
/** Retention (days) an adapter keeps events for when opened without one. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
/** The largest page a search returns (an OpenSearch page is at most index.max_result_window). */
export const AUDIT_MAX_PAGE_SIZE = 10_000;
/**
 * The most distinct values one filter list of an audit search may hold: every value is a bound
 * parameter (SQLite takes at most 32766 in a statement) or a term of the query.
 */
export const AUDIT_MAX_FILTER_VALUES = 1_000;

/** The UTC day an event's timestamp falls in, as `yyyy.mm.dd` (the partition suffix). */
export function auditDayOf(timestamp: number): string {
  const date = new Date(Math.floor(timestamp / DAY_MS) * DAY_MS);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${year}.${month}.${day}`;
}

/** The first ms of a `yyyy.mm.dd` day, or undefined when the text is not one. */
export function auditDayStart(day: string): number | undefined {
  const match = /^(\d{4})\.(\d{2})\.(\d{2})$/.exec(day);
  if (match === null) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const start = Date.UTC(y, m - 1, d);
  return auditDayOf(start) === day ? start : undefined;
}

/** Whether the day holds any instant of [startTime, endTime). */
export function dayOverlaps(dayStart: number, startTime: number, endTime: number): boolean {
  return dayStart < endTime && dayStart + DAY_MS > startTime;
}

/**
 * Whether a whole day is older than the retention: it ended at or before `now - retentionDays`. A day
 * holding any event younger than the retention is kept; retention 0 or negative keeps everything.
 */
export function dayExpired(dayStart: number, now: number, retentionDays: number): boolean {
  return retentionDays > 0 && dayStart + DAY_MS <= now - retentionDays * DAY_MS;
}

/** Newest first: timestamp descending, then id descending (code point order, as SQLite and OpenSearch). */
export function compareAuditOrder(a: AuditCursor, b: AuditCursor): number {
  if (a.timestamp !== b.timestamp) return b.timestamp - a.timestamp;
  return compareCodePoints(b.id, a.id);
}

/** The cursor that resumes strictly after an event. */
export function cursorOf(event: AuditEvent): AuditCursor {
  return { timestamp: event.timestamp, id: event.id };
}

export interface AuditFilters {
  readonly eventTypes: readonly string[];
  readonly entityTypes: readonly string[];
  readonly aspectTypes: readonly string[];
  readonly actorUrns: readonly string[];
}

/** A query checked, with its filter lists deduplicated (an empty list is no filter). */
export interface NormalizedAuditQuery extends AuditFilters {
  readonly startTime: number;
  readonly endTime: number;
  readonly size: number;
  readonly after?: AuditCursor;
}

/** Checks a query (RangeError on a bad one) and normalizes its filter lists. */
export function normalizeAuditQuery(query: AuditQuery): NormalizedAuditQuery {
  if (!Number.isFinite(query.startTime) || !Number.isFinite(query.endTime))
    throw new RangeError(`audit search: startTime and endTime must be finite numbers`);
  if (!Number.isInteger(query.size) || query.size < 0 || query.size > AUDIT_MAX_PAGE_SIZE)
    throw new RangeError(
      `audit search: size must be an integer in [0, ${AUDIT_MAX_PAGE_SIZE}], got ${query.size}`,
    );
  const { after } = query;
  if (after !== undefined && (!Number.isFinite(after.timestamp) || typeof after.id !== 'string'))
    throw new RangeError('audit search: the cursor needs a finite timestamp and a string id');
  return {
    startTime: query.startTime,
    endTime: query.endTime,
    size: query.size,
    ...(after === undefined ? {} : { after: { timestamp: after.timestamp, id: after.id } }),
    eventTypes: bounded('eventTypes', distinct(query.eventTypes)),
    entityTypes: bounded('entityTypes', distinct(query.entityTypes)),
    aspectTypes: bounded('aspectTypes', distinct(query.aspectTypes)),
    actorUrns: bounded('actorUrns', distinct(query.actorUrns)),
  };
}

function bounded(name: string, values: readonly string[]): readonly string[] {
  if (values.length > AUDIT_MAX_FILTER_VALUES)
    throw new RangeError(
      `audit search: ${name} lists ${values.length} distinct values; at most ${AUDIT_MAX_FILTER_VALUES} are allowed`,
    );
  return values;
}

/** Checks an event before it is written (TypeError on a bad one). */
export function validateAuditEvent(event: AuditEvent): void {
  if (typeof event.id !== 'string' || event.id === '')
    throw new TypeError('audit event: id must be a non-empty string');
  if (!Number.isSafeInteger(event.timestamp))
    throw new TypeError(
      `audit event ${event.id}: timestamp must be an integer of ms, got ${event.timestamp}`,
    );
  if (typeof event.eventType !== 'string' || event.eventType === '')
    throw new TypeError(`audit event ${event.id}: eventType must be a non-empty string`);
  if (typeof event.actorUrn !== 'string')
    throw new TypeError(`audit event ${event.id}: actorUrn must be a string`);
  if (
    typeof event.rawUsageEvent !== 'object' ||
    event.rawUsageEvent === null ||
    Array.isArray(event.rawUsageEvent)
  )
    throw new TypeError(`audit event ${event.id}: rawUsageEvent must be an object`);
}

/**
 * The reference semantics of a query on one event, `after` included: in [startTime, endTime), strictly
 * after the cursor, and matching every non-empty filter list (an event lacking the field does not match).
 */
export function auditEventMatches(event: AuditEvent, query: NormalizedAuditQuery): boolean {
  if (event.timestamp < query.startTime || event.timestamp >= query.endTime) return false;
  if (query.after !== undefined && compareAuditOrder(cursorOf(event), query.after) <= 0) return false;
  return (
    within(query.eventTypes, event.eventType) &&
    within(query.entityTypes, event.entityType) &&
    within(query.aspectTypes, event.aspectName) &&
    within(query.actorUrns, event.actorUrn)
  );
}

function within(values: readonly string[], value: string | undefined): boolean {
  return values.length === 0 || (value !== undefined && values.includes(value));
}

function distinct(values: readonly string[] | undefined): readonly string[] {
  return values === undefined ? [] : [...new Set(values)];
}
