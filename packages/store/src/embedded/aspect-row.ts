import type { AuditStamp, StoredAspect, SystemMetadata } from '../port.js';
import { decodeJson, decodeNullableJson, type StoredJson } from './stored-json.js';

/** One row of the `aspects` (or `removed_aspects`) table as better-sqlite3 returns it. */
export interface EncodedAspectRow {
  readonly urn: string;
  readonly aspect: string;
  readonly version: number;
  readonly metadata: StoredJson;
  readonly system_metadata: StoredJson | null;
  readonly created_on: number;
  readonly created_by: string;
  readonly created_for: string | null;
  readonly created_message: string | null;
}

/**
 * A row with its JSON columns as text (see stored-json.ts): what the write path compares and what a
 * request record's digest covers, so neither depends on how the file stores the value.
 */
export interface AspectRow {
  readonly urn: string;
  readonly aspect: string;
  readonly version: number;
  readonly metadata: string;
  readonly system_metadata: string | null;
  readonly created_on: number;
  readonly created_by: string;
  readonly created_for: string | null;
  readonly created_message: string | null;
}

/** Columns in the order every SELECT of the store lists them. */
export const ASPECT_COLUMNS =
  'urn, aspect, version, metadata, system_metadata, created_on, created_by, created_for, created_message';

export function decodeRow(row: EncodedAspectRow): AspectRow {
  return {
    ...row,
    metadata: decodeJson(row.metadata),
    system_metadata: decodeNullableJson(row.system_metadata),
  };
}

/**
 * The StoredAspect of a row as read from the file: what every read returns, so built in one step
 * (not through decodeRow's copy of the row).
 */
export function storedAspectOfRow(row: EncodedAspectRow): StoredAspect {
  const systemText = decodeNullableJson(row.system_metadata);
  return {
    urn: row.urn,
    aspect: row.aspect,
    version: row.version,
    value: JSON.parse(decodeJson(row.metadata)) as Record<string, unknown>,
    systemMetadata: systemText === null ? null : (JSON.parse(systemText) as SystemMetadata),
    created: toAuditStamp(row),
  };
}

export function toStoredAspect(row: AspectRow): StoredAspect {
  return {
    urn: row.urn,
    aspect: row.aspect,
    version: row.version,
    value: JSON.parse(row.metadata) as Record<string, unknown>,
    systemMetadata: row.system_metadata === null ? null : (JSON.parse(row.system_metadata) as SystemMetadata),
    created: toAuditStamp(row),
  };
}

function toAuditStamp(
  row: Pick<AspectRow, 'created_on' | 'created_by' | 'created_for' | 'created_message'>,
): AuditStamp {
  // Optional members are left out rather than set to undefined, so a stamp round-trips deep-equal.
  return {
    time: row.created_on,
    actor: row.created_by,
    ...(row.created_for === null ? {} : { impersonator: row.created_for }),
    ...(row.created_message === null ? {} : { message: row.created_message }),
  };
}

/** The StoredAspect a write produces, built in memory so results need no read-back. */
export function storedAspectOf(
  urn: string,
  aspect: string,
  version: number,
  value: Readonly<Record<string, unknown>>,
  systemMetadata: SystemMetadata | null,
  created: AuditStamp,
): StoredAspect {
  return { urn, aspect, version, value, systemMetadata, created: normalizeStamp(created) };
}

function normalizeStamp(stamp: AuditStamp): AuditStamp {
  return {
    time: stamp.time,
    actor: stamp.actor,
    ...(stamp.impersonator === undefined ? {} : { impersonator: stamp.impersonator }),
    ...(stamp.message === undefined ? {} : { message: stamp.message }),
  };
}
