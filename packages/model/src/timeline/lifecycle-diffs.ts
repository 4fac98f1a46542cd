import type { ChangeAuditStamp, ChangeEvent } from './change-event.js';
import type { Json } from './aspect-values.js';

/**
 * The key aspects whose creation and deletion are an entity's hard creation and deletion (the ecosystem
 * registers its key generator for these).
 */
export const LIFECYCLE_KEY_ASPECTS: readonly string[] = [
  'datasetKey',
  'containerKey',
  'chartKey',
  'dashboardKey',
  'dataFlowKey',
  'dataJobKey',
  'domainKey',
  'tagKey',
  'glossaryTermKey',
  'corpGroupKey',
  'businessAttributeKey',
];

const DESCRIPTIONS: Record<'CREATE' | 'HARD_DELETE' | 'SOFT_DELETE' | 'REINSTATE', (urn: string) => string> =
  {
    CREATE: (urn) => `${urn} was created.`,
    HARD_DELETE: (urn) => `${urn} was hard deleted.`,
    SOFT_DELETE: (urn) => `${urn} was soft deleted.`,
    REINSTATE: (urn) => `${urn} was reinstated.`,
  };

function lifecycle(
  entityUrn: string,
  operation: 'CREATE' | 'HARD_DELETE' | 'SOFT_DELETE' | 'REINSTATE',
  auditStamp?: ChangeAuditStamp,
): ChangeEvent {
  return {
    entityUrn,
    category: 'LIFECYCLE',
    operation,
    ...(auditStamp ? { auditStamp } : {}),
    semVerChange: 'NONE',
    description: DESCRIPTIONS[operation](entityUrn),
  };
}

/** The key aspect written (CREATE: the entity now exists) or deleted (HARD_DELETE). */
export function entityKeyChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  if (base === undefined && target !== undefined) return [lifecycle(entityUrn, 'CREATE', auditStamp)];
  if (base !== undefined && target === undefined) return [lifecycle(entityUrn, 'HARD_DELETE', auditStamp)];
  return [];
}

/**
 * A status written removed is a SOFT_DELETE (whatever it was before, as the ecosystem's generator says);
 * one no longer removed after being removed, a REINSTATE.
 */
export function statusChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const removed = (value: Json | undefined) => value?.['removed'] === true;
  if (removed(target)) return [lifecycle(entityUrn, 'SOFT_DELETE', auditStamp)];
  if (removed(base)) return [lifecycle(entityUrn, 'REINSTATE', auditStamp)];
  return [];
}
