import type { AuditEvent } from '../audit/audit-index.js';

/**
 * How one audit event is kept in a day table of the embedded audit index: every value once, the
 * repeated strings of a day as small integer codes of that day's term table, hex strings as bytes and
 * the raw usage event as references to the event's own fields. The column names, the client fields'
 * order
 * and the bit and reference numbers below are the file format: change them only with a migration.
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
  /**
   * TEXT starting with `urn:`: the urn; other TEXT: the urn after its `urn:li:<entity_type>:`
   * prefix; BLOB: a value that is no urn, as UTF-8.
   */
  readonly entity_urn: string | Buffer | null;
  readonly source_ip: string | null;
  /** The request's client, as one term: see clientTerm. */
  readonly client: number | null;
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
  'client',
  'trace_id',
  'raw',
];

/** The columns that hold term codes. */
export type AuditTermColumn = 'event_type' | 'actor' | 'entity_type' | 'aspect' | 'client';

/** The fields a client term holds, in their order in it. */
const CLIENT_FIELDS = [
  'userAgent',
  'eventSource',
  'loginSource',
  'loginDenialReason',
] as const satisfies readonly (keyof AuditEvent)[];

export type AuditClient = { readonly [K in (typeof CLIENT_FIELDS)[number]]?: string };

/**
 * The client fields of an event as one string (a JSON array, trailing absent fields left off), so a
 * row holds one code for what repeats together from a client (its user agent, the API it used, its
 * login source); undefined when it has none. The source IP stays apart: it varies more.
 */
export function clientTerm(event: AuditEvent): string | undefined {
  const values = CLIENT_FIELDS.map((field) => event[field] ?? null);
  while (values.length > 0 && values[values.length - 1] === null) values.pop();
  return values.length === 0 ? undefined : JSON.stringify(values);
}

export function parseClient(term: string): AuditClient {
  const values = JSON.parse(term) as (string | null)[];
  const client: { -readonly [K in keyof AuditClient]: AuditClient[K] } = {};
  CLIENT_FIELDS.forEach((field, i) => {
    const value = values[i];
    if (typeof value === 'string') client[field] = value;
  });
  return client;
}

/**
 * A row as read (auditRowSelection), positionally (an array per row costs less to read than an
 * object): term codes as their strings, hex bytes turned back into text by SQLite (so that reading a
 * row makes no Buffer, but for an entity urn that is no urn).
 */
export type StoredAuditRow = readonly [
  id: string,
  ts: number,
  eventType: string,
  actor: string,
  entityType: string | null,
  aspect: string | null,
  entityUrn: string | Buffer | null,
  sourceIP: string | null,
  client: string | null,
  traceId: string | null,
  raw: number | string,
];

/** SQL of a column written by packHex, as the string written. */
export function unpackedHexSql(column: string): string {
  return `CASE typeof(${column}) WHEN 'blob' THEN lower(hex(${column})) ELSE ${column} END`;
}

const TERM_COLUMNS: readonly AuditTermColumn[] = ['event_type', 'actor', 'entity_type', 'aspect', 'client'];

/**
 * The select list and FROM clause that read StoredAuditRows (in their order) from a day table, as
 * `e`, and its term table.
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
    'e.entity_urn',
    'e.source_ip',
    term('client'),
    unpackedHexSql('e.trace_id'),
    'e.raw',
  ];
  const joins = TERM_COLUMNS.map(
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
  const client = clientTerm(event);
  return {
    id: packHex(event.id),
    id_hash: auditIdHash(event.id),
    ts: event.timestamp,
    event_type: term(event.eventType),
    actor: term(event.actorUrn),
    entity_type: event.entityType === undefined ? null : term(event.entityType),
    aspect: event.aspectName === undefined ? null : term(event.aspectName),
    entity_urn: encodeEntityUrn(event.entityUrn, event.entityType),
    source_ip: event.sourceIP ?? null,
    client: client === undefined ? null : term(client),
    trace_id: event.telemetryTraceId === undefined ? null : packHex(event.telemetryTraceId),
    raw: encodeRaw(event),
  };
}

/**
 * The event a row holds, as written (fields absent when written absent); `client` parses a client
 * term (a reader may keep what it parsed).
 */
export function decodeAuditRow(
  row: StoredAuditRow,
  client: (term: string) => AuditClient = parseClient,
): AuditEvent {
  const [
    id,
    timestamp,
    eventType,
    actorUrn,
    entityType,
    aspect,
    entityUrn,
    sourceIP,
    clientTerm,
    traceId,
    raw,
  ] = row;
  const event: { -readonly [K in keyof AuditEvent]?: AuditEvent[K] } = { id, eventType, timestamp, actorUrn };
  if (entityUrn !== null) event.entityUrn = decodeEntityUrn(entityUrn, entityType ?? undefined);
  if (entityType !== null) event.entityType = entityType;
  if (aspect !== null) event.aspectName = aspect;
  if (sourceIP !== null) event.sourceIP = sourceIP;
  if (clientTerm !== null) Object.assign(event, client(clientTerm));
  if (traceId !== null) event.telemetryTraceId = traceId;
  event.rawUsageEvent = decodeRaw(raw, event as Omit<AuditEvent, 'rawUsageEvent'>);
  return event as AuditEvent;
}

function encodeEntityUrn(urn: string | undefined, entityType: string | undefined): string | Buffer | null {
  if (urn === undefined) return null;
  if (entityType !== undefined) {
    const prefix = `urn:li:${entityType}:`;
    const rest = urn.slice(prefix.length);
    if (urn.startsWith(prefix) && !rest.startsWith('urn:')) return rest;
  }
  return urn.startsWith('urn:') ? urn : Buffer.from(urn, 'utf8');
}

function decodeEntityUrn(stored: string | Buffer, entityType: string | undefined): string {
  if (typeof stored !== 'string') return stored.toString('utf8');
  return stored.startsWith('urn:') || entityType === undefined ? stored : `urn:li:${entityType}:${stored}`;
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
    if (key !== '__proto__') raw[key] = value;
    // An own property, as JSON.parse makes it, not the prototype.
    else Object.defineProperty(raw, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return raw;
}

function referencedValue(event: Omit<AuditEvent, 'rawUsageEvent'>, reference: number): unknown {
  const field = RAW_REFERENCES[reference]?.[1];
  if (field === undefined) return undefined;
  return typeof field === 'string' ? event[field] : field.constant;
}
