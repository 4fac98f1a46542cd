import type { AspectWrite, SystemMetadata } from './port.js';

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
