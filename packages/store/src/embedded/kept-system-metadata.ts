import type { AuditStamp, SystemMetadata } from '../port.js';
import type { RowContent } from './recorded-result.js';

/**
 * Members of a version 0's system metadata that usually repeat its own audit stamp (the stores set
 * aspectModified, and aspectCreated of a first version, to the writing request's stamp; lastObserved
 * defaults to its time): the row keeps the stamp, so a record names these members instead.
 */
const FROM_STAMP = ['lastObserved', 'aspectCreated', 'aspectModified'] as const;
type FromStamp = (typeof FROM_STAMP)[number];

/**
 * The JSON text a request record keeps for the system metadata a result gives a version 0: the
 * metadata itself, or, when members of it equal what the row's audit stamp gives them,
 * `[the other members, ...their names]` (system metadata is an object or null, never an array).
 */
export function keptSystemMetadata(systemMetadata: SystemMetadata | null, row: RowContent): string {
  if (systemMetadata === null) return 'null';
  const rest: Record<string, unknown> = { ...systemMetadata };
  const named: FromStamp[] = [];
  const stampText = JSON.stringify(stampOf(row));
  for (const name of FROM_STAMP) {
    const value = systemMetadata[name];
    const same = name === 'lastObserved' ? value === row.created_on : JSON.stringify(value) === stampText;
    if (!same) continue;
    delete rest[name];
    named.push(name);
  }
  return JSON.stringify(named.length === 0 ? systemMetadata : [rest, ...named]);
}

/** The system metadata keptSystemMetadata kept, as the result gave it; undefined when it is not one. */
export function restoredSystemMetadata(kept: unknown, row: RowContent): SystemMetadata | null | undefined {
  if (!Array.isArray(kept)) return kept as SystemMetadata | null;
  const [rest, ...named] = kept as [Record<string, unknown>, ...string[]];
  const out: Record<string, unknown> = { ...rest };
  for (const name of named) {
    if (name === 'lastObserved') out[name] = row.created_on;
    else if (name === 'aspectCreated' || name === 'aspectModified') out[name] = stampOf(row);
    else return undefined;
  }
  return out as SystemMetadata;
}

/** The row's audit stamp as system metadata carries it (write-rules' stampOf: members in that order). */
function stampOf(row: RowContent): AuditStamp {
  return {
    actor: row.created_by,
    time: row.created_on,
    ...(row.created_for === null ? {} : { impersonator: row.created_for }),
    ...(row.created_message === null ? {} : { message: row.created_message }),
  };
}
