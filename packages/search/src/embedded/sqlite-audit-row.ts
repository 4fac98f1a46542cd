import type { AuditEvent } from '../audit/audit-index.js';

/**
 * How one audit event is kept in a day table of the embedded audit index: every value once, the
 * repeated strings of a day as small integer codes of that day's term table, hex strings as bytes and
 * the raw usage event as references to the event's own fields. The column names and the bit and
 * reference numbers below are the file format: change them only with a migration.
 */
export interface AuditRow {
  /** Lowercase hex of even length as a BLOB of its bytes, any other id as TEXT. */
  readonly id: string | Buffer;
  readonly id_hash: number;
  readonly ts: number;
  readonly event_type: number;
  readonly actor: number;
  readonly entity_type: number | null;
  readonly aspect: number | null;
  /** TEXT: the urn; BLOB: the urn without its `urn:li:<entity_type>:` prefix (UTF-8). */
  readonly entity_urn: string | Buffer | null;
  readonly source_ip: number | null;
  readonly user_agent: number | null;
  readonly event_source: number | null;
  readonly login_source: number | null;
  readonly login_denial: number | null;
  /** As id. */
  readonly trace_id: string | Buffer | null;
  /** See encodeRaw. */
  readonly raw: number | string;
}

/** The columns of a day table after `seq`, in the order of AuditRow. */
export const AUDIT_ROW_COLUMNS: readonly (keyof AuditRow)[] = [
  'id',
  'id_hash',
  'ts',
  'event_type',
  'actor',
  'entity_type',
  'aspect',
  'entity_urn',
  'source_ip',
  'user_agent',
  'event_source',
  'login_source',
  'login_denial',
  'trace_id',
  'raw',
];

/** The columns that hold term codes, each read back through the day's term table. */
export const AUDIT_TERM_COLUMNS = [
  'event_type',
  'actor',
  'entity_type',
  'aspect',
  'source_ip',
  'user_agent',
  'event_source',
  'login_source',
  'login_denial',
] as const satisfies readonly (keyof AuditRow)[];

export type AuditTermColumn = (typeof AUDIT_TERM_COLUMNS)[number];

/**
 * A row as read (auditRowSelection), positionally (an array per row costs less to read than an
 * object): its term codes, hex bytes and shortened entity urn turned back into the strings written by
 * SQLite, so that reading a row makes no Buffer.
 */
export type StoredAuditRow = readonly [
  id: string,
  ts: number,
  eventType: string,
  actor: string,
  entityType: string | null,
  aspect: string | null,
  entityUrn: string | null,
  sourceIP: string | null,
  userAgent: string | null,
  eventSource: string | null,
  traceId: string | null,
  loginSource: string | null,
  loginDenial: string | null,
  raw: number | string,
];

/** SQL of a column written by packHex, as the string written. */
export function unpackedHexSql(column: string): string {
  return `CASE typeof(${column}) WHEN 'blob' THEN lower(hex(${column})) ELSE ${column} END`;
}

/**
 * The select list and FROM clause that read StoredAuditRows (in their order) from a day table, as `e`,
 * and its term table.
 */
export function auditRowSelection(table: string, terms: string): string {
  const term = (column: AuditTermColumn) => `t_${column}.value`;
  const columns = [
    unpackedHexSql('e.id'),
    'e.ts',
    term('event_type'),
    term('actor'),
    term('entity_type'),
    term('aspect'),
    `CASE typeof(e.entity_urn) WHEN 'blob'
       THEN 'urn:li:' || ${term('entity_type')} || ':' || CAST(e.entity_urn AS TEXT)
       ELSE e.entity_urn END`,
    term('source_ip'),
    term('user_agent'),
    term('event_source'),
    unpackedHexSql('e.trace_id'),
    term('login_source'),
    term('login_denial'),
    'e.raw',
  ];
  const joins = AUDIT_TERM_COLUMNS.map(
    (column) => `LEFT JOIN "${terms}" AS t_${column} ON t_${column}.code = e.${column}`,
  );
  return `${columns.join(', ')} FROM "${table}" AS e ${joins.join(' ')}`;
}

type EventField = Exclude<keyof AuditEvent, 'rawUsageEvent'>;

/**
 * The keys of a raw usage event that usually repeat a field of the event (the consumer builds it so),
 * by reference number: such a key is kept as its number while its value is that field's. Appending
 * is fine; reordering is a format change.
 */
const RAW_REFERENCES: readonly (readonly [key: string, field: EventField | { constant: string }])[] = [
  ['type', 'eventType'],
  ['timestamp', 'timestamp'],
  ['actorUrn', 'actorUrn'],
  ['entityUrn', 'entityUrn'],
  ['entityType', 'entityType'],
  ['aspectName', 'aspectName'],
  ['eventSource', 'eventSource'],
  ['sourceIP', 'sourceIP'],
  ['userAgent', 'userAgent'],
  ['traceId', 'telemetryTraceId'],
  ['usageSource', { constant: 'backend' }],
  ['eventId', 'id'],
  ['loginSource', 'loginSource'],
  ['loginDenialReason', 'loginDenialReason'],
];
const REFERENCE_OF_KEY: ReadonlyMap<string, number> = new Map(RAW_REFERENCES.map(([key], i) => [key, i]));

const HEX = /^(?:[0-9a-f]{2})+$/;

/** Lowercase hex of even length as its bytes (half the size), any other string as itself. */
export function packHex(value: string): string | Buffer {
  return HEX.test(value) ? Buffer.from(value, 'hex') : value;
}

/**
 * A 31-bit hash of an event id (FNV-1a over its UTF-16 code units), the key of the id lookup that
 * makes writes idempotent: four bytes in the index instead of the id itself; equal hashes of other
 * ids are told apart by comparing the id.
 */
export function auditIdHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 1;
}

/**
 * The row of an event, `term` giving the code of a string in the day's term table. Only the fields of
 * AuditEvent are kept.
 */
export function encodeAuditRow(event: AuditEvent, term: (value: string) => number): AuditRow {
  const optionalTerm = (value: string | undefined) => (value === undefined ? null : term(value));
  return {
    id: packHex(event.id),
    id_hash: auditIdHash(event.id),
    ts: event.timestamp,
    event_type: term(event.eventType),
    actor: term(event.actorUrn),
    entity_type: optionalTerm(event.entityType),
    aspect: optionalTerm(event.aspectName),
    entity_urn: encodeEntityUrn(event.entityUrn, event.entityType),
    source_ip: optionalTerm(event.sourceIP),
    user_agent: optionalTerm(event.userAgent),
    event_source: optionalTerm(event.eventSource),
    login_source: optionalTerm(event.loginSource),
    login_denial: optionalTerm(event.loginDenialReason),
    trace_id: event.telemetryTraceId === undefined ? null : packHex(event.telemetryTraceId),
    raw: encodeRaw(event),
  };
}

/** The event a row holds, as written (fields absent when written absent, in AuditEvent's order). */
export function decodeAuditRow(row: StoredAuditRow): AuditEvent {
  const [id, timestamp, eventType, actorUrn, entityType, aspectName, entityUrn, sourceIP, userAgent] = row;
  const [, , , , , , , , , eventSource, traceId, loginSource, loginDenial, raw] = row;
  const event: { -readonly [K in keyof AuditEvent]?: AuditEvent[K] } = {
    id,
    eventType,
    timestamp,
    actorUrn,
  };
  if (entityUrn !== null) event.entityUrn = entityUrn;
  if (entityType !== null) event.entityType = entityType;
  if (aspectName !== null) event.aspectName = aspectName;
  if (sourceIP !== null) event.sourceIP = sourceIP;
  if (userAgent !== null) event.userAgent = userAgent;
  if (eventSource !== null) event.eventSource = eventSource;
  if (traceId !== null) event.telemetryTraceId = traceId;
  if (loginSource !== null) event.loginSource = loginSource;
  if (loginDenial !== null) event.loginDenialReason = loginDenial;
  event.rawUsageEvent = decodeRaw(raw, event as Omit<AuditEvent, 'rawUsageEvent'>);
  return event as AuditEvent;
}

function encodeEntityUrn(urn: string | undefined, entityType: string | undefined): string | Buffer | null {
  if (urn === undefined) return null;
  const prefix = entityType === undefined ? undefined : `urn:li:${entityType}:`;
  return prefix !== undefined && urn.startsWith(prefix) ? Buffer.from(urn.slice(prefix.length), 'utf8') : urn;
}

/**
 * The raw usage event as an INTEGER when each of its keys is a reference whose value is the event's
 * field and they come in reference order (bit n set: reference n is present; what the consumer builds
 * for a change log), else as TEXT: a JSON array, in the object's key order, of reference numbers and
 * `[key, value]` pairs for the rest. Key order and JSON values survive either way.
 */
export function encodeRaw(event: AuditEvent): number | string {
  const items: (number | [string, unknown])[] = [];
  let bits = 0;
  let ascending = true;
  let previous = -1;
  for (const [key, value] of Object.entries(event.rawUsageEvent)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const reference = REFERENCE_OF_KEY.get(key);
    if (reference !== undefined && value === referencedValue(event, reference)) {
      items.push(reference);
      bits |= 1 << reference;
      ascending &&= reference > previous;
      previous = reference;
    } else {
      items.push([key, value]);
      ascending = false;
    }
  }
  return ascending ? bits : JSON.stringify(items);
}

export function decodeRaw(
  stored: number | string,
  event: Omit<AuditEvent, 'rawUsageEvent'>,
): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  if (typeof stored === 'number') {
    for (let reference = 0; reference < RAW_REFERENCES.length; reference++)
      if ((stored & (1 << reference)) !== 0)
        raw[RAW_REFERENCES[reference]![0]] = referencedValue(event, reference);
    return raw;
  }
  for (const item of JSON.parse(stored) as (number | [string, unknown])[]) {
    const [key, value] =
      typeof item === 'number' ? [RAW_REFERENCES[item]?.[0], referencedValue(event, item)] : item;
    if (key === undefined) throw new Error(`audit row: unknown raw usage event reference ${String(item)}`);
    // An own property even for "__proto__", as JSON.parse makes it.
    Object.defineProperty(raw, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return raw;
}

function referencedValue(event: Omit<AuditEvent, 'rawUsageEvent'>, reference: number): unknown {
  const field = RAW_REFERENCES[reference]?.[1];
  if (field === undefined) return undefined;
  return typeof field === 'string' ? event[field] : field.constant;
}
