import { isDomainError } from '@catalog/model';
import type {
  ApplyResult,
  AspectWrite,
  AuditStamp,
  SideAspect,
  StoredState,
  SystemMetadata,
} from './port.js';

/**
 * The run id the ecosystem's records carry when the writer gave none (the Avro default). The stores do
 * not store it for a write without one; a stored one is not a run either, so it is not carried over as
 * the lastRunId of the next write.
 */
export const DEFAULT_RUN_ID = 'no-run-id-provided';

/** What a write onto an existing version 0 knows of it, for the system metadata it stores. */
export interface PreviousVersion {
  readonly systemMetadata: SystemMetadata | null;
  /** How many versions the aspect has had (history rows + 1): its version when its metadata has none. */
  readonly versions: () => number;
}

/**
 * System metadata of a value stored as a new version 0, with the ecosystem's version bookkeeping:
 * `version` "1" for the aspect's first value and one more than the previous version for each new one;
 * `aspectCreated` the stamp of the first version (kept from the previous version 0; absent when that
 * was stored before the stores kept it); `aspectModified` this write's stamp. Over an existing aspect,
 * `lastRunId` becomes the previous version's runId (absent when it had none), as the ecosystem's
 * EntityServiceImpl.applyUpsert does. Both store adapters apply it.
 */
export function newVersionMetadata(
  incoming: SystemMetadata | null,
  previous: PreviousVersion | undefined,
  created: AuditStamp,
): SystemMetadata {
  const out: Record<string, unknown> = { ...(incoming ?? {}) };
  const modified = stampOf(created);
  if (previous === undefined) {
    out['version'] = '1';
    out['aspectCreated'] = modified;
  } else {
    const before = previous.systemMetadata;
    carryRunIds(out, before, incoming);
    out['version'] = String(versionNumber(before, previous.versions) + 1);
    if (before?.aspectCreated === undefined) delete out['aspectCreated'];
    else out['aspectCreated'] = before.aspectCreated;
  }
  out['aspectModified'] = modified;
  return out as SystemMetadata;
}

/**
 * The system metadata a side aspect of the write (its key aspect, an entity default) is stored with,
 * before newVersionMetadata: the write's, with the side aspect's own schemaVersion (none when it has none).
 */
export function sideMetadata(write: AspectWrite, side: SideAspect): SystemMetadata | null {
  const incoming = write.systemMetadata ?? null;
  if (incoming === null && side.schemaVersion === undefined) return null;
  const { schemaVersion: _theWrites, ...rest } = incoming ?? {};
  return (
    side.schemaVersion === undefined ? rest : { ...rest, schemaVersion: side.schemaVersion }
  ) as SystemMetadata;
}

/**
 * System metadata of an identical value seen again, as the ecosystem keeps it: the stored metadata with
 * the new lastObserved, the write's runId and schemaVersion (when it has one), and the previous runId as
 * lastRunId. The version and its
 * stamps stay; metadata stored before the stores kept a version gets the count of versions. Both store
 * adapters apply it.
 */
export function observedAgain(
  stored: SystemMetadata | null,
  incoming: SystemMetadata | null,
  now: number,
  versions: () => number,
): SystemMetadata {
  const base: Record<string, unknown> = { ...(stored ?? {}) };
  base['lastObserved'] = incoming?.lastObserved ?? now;
  carryRunIds(base, stored, incoming);
  // The schema version of the write, as the ecosystem takes it over onto the stored metadata.
  if (incoming?.schemaVersion !== undefined && incoming.schemaVersion !== null)
    base['schemaVersion'] = incoming.schemaVersion;
  if (typeof stored?.version !== 'string') base['version'] = String(versions());
  return base as SystemMetadata;
}

/**
 * A write onto an existing aspect: runId is the write's own (absent when it sent none) and lastRunId
 * the previous version's runId (absent when it had none, or only the default).
 */
function carryRunIds(
  target: Record<string, unknown>,
  before: SystemMetadata | null,
  incoming: SystemMetadata | null,
): void {
  const previousRun = before?.runId;
  if (typeof previousRun === 'string' && previousRun !== DEFAULT_RUN_ID) target['lastRunId'] = previousRun;
  else delete target['lastRunId'];
  if (incoming?.runId === undefined) delete target['runId'];
  else target['runId'] = incoming.runId;
}

/**
 * The version number of a stored version 0: its metadata's `version`, or, for metadata stored without
 * one (or with one that is not a number), the count of versions.
 */
function versionNumber(stored: SystemMetadata | null, versions: () => number): number {
  const text = stored?.version;
  if (typeof text === 'string' && /^[1-9][0-9]{0,14}$/.test(text)) return Number(text);
  return Math.max(1, versions());
}

/** The `version` of stored system metadata (StoredState.version); undefined when it has none. */
export function storedVersionText(stored: SystemMetadata | null | undefined): string | undefined {
  return typeof stored?.version === 'string' ? stored.version : undefined;
}

/** An audit stamp as system metadata carries it: optional members left out rather than undefined. */
function stampOf(created: AuditStamp): AuditStamp {
  return {
    actor: created.actor,
    time: created.time,
    ...(created.impersonator === undefined ? {} : { impersonator: created.impersonator }),
    ...(created.message === undefined ? {} : { message: created.message }),
  };
}

/** The value of an UPSERT or CREATE; callers validate before they write, so a missing one is a bug upstream. */
export function requireValue(write: AspectWrite): Readonly<Record<string, unknown>> {
  if (write.value === undefined) {
    throw new TypeError(
      `${write.mode} of ${write.aspect} on ${write.urn} (request ${write.requestId}) has no value`,
    );
  }
  return write.value;
}

/** The value an UPSERT or CREATE stores: its own, or what its patch makes of version 0. */
export type NewValue =
  | { readonly ok: true; readonly value: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly rejection: NonNullable<ApplyResult['rejection']> };

export function newValue(
  write: AspectWrite,
  current: Readonly<Record<string, unknown>> | undefined,
  stored: StoredState,
): NewValue {
  if (write.patch === undefined) return { ok: true, value: requireValue(write) };
  try {
    return { ok: true, value: write.patch(current, stored) };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, rejection: { code: error.code, message: error.message } };
    throw error;
  }
}

/** Rejects malformed writes before a batch starts, so one bad write cannot stop a batch midway. */
export function checkWrite(write: AspectWrite): void {
  if (typeof write.requestId !== 'string' || write.requestId === '') {
    throw new TypeError(`write of ${write.aspect} on ${write.urn} has no request id`);
  }
  if (
    (write.mode === 'UPSERT' || write.mode === 'CREATE') &&
    write.value === undefined &&
    write.patch === undefined
  ) {
    throw new TypeError(
      `${write.mode} of ${write.aspect} on ${write.urn} (request ${write.requestId}) has no value`,
    );
  }
}
