import { isDomainError } from '@catalog/model';
import type { ApplyResult, AspectWrite, StoredState, SystemMetadata } from './port.js';

/**
 * System metadata of an identical value seen again, as the ecosystem keeps it: the stored metadata with
 * the new lastObserved, the new run as runId, and the run that stored it before as lastRunId. Both store
 * adapters apply it.
 */
export function observedAgain(
  stored: SystemMetadata | null,
  incoming: SystemMetadata | null,
  now: number,
): SystemMetadata {
  const base: Record<string, unknown> = { ...(stored ?? {}) };
  base['lastObserved'] = incoming?.lastObserved ?? now;
  if (incoming?.runId !== undefined) {
    if (stored?.runId !== undefined) base['lastRunId'] = stored.runId;
    base['runId'] = incoming.runId;
  }
  return base as SystemMetadata;
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
