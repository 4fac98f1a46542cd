/**
 * The audit event types (spec section 6) and the ecosystem's mapping from a change log to one
 * (EntityServiceImpl `mapAspectToUsageEvent`): the change type and the aspect name decide it.
 */

import { type AuditEventType } from '@catalog/search';

export { AUDIT_EVENT_TYPES, isAuditEventType, LOGIN_EVENT_TYPES, type AuditEventType } from '@catalog/search';

/** The change types that write an aspect (as opposed to DELETE and RESTATE). */
const WRITES: ReadonlySet<string> = new Set(['UPSERT', 'CREATE', 'CREATE_ENTITY', 'PATCH', 'UPDATE']);

/** The aspects of a user whose writes are UpdateUserEvent. */
const USER_ASPECTS: ReadonlySet<string> = new Set([
  'corpUserCredentials',
  'corpUserEditableInfo',
  'corpUserInfo',
  'corpUserSettings',
  'corpUserStatus',
  'groupMembership',
  'roleMembership',
  'nativeGroupMembership',
]);

const WRITE_EVENTS: Readonly<Record<string, AuditEventType>> = {
  dataHubAccessTokenKey: 'CreateAccessTokenEvent',
  dataHubIngestionSourceKey: 'CreateIngestionSourceEvent',
  dataHubIngestionSourceInfo: 'UpdateIngestionSourceEvent',
  dataHubPolicyKey: 'CreatePolicyEvent',
  dataHubPolicyInfo: 'UpdatePolicyEvent',
  corpUserKey: 'CreateUserEvent',
};

const DELETE_EVENTS: Readonly<Record<string, AuditEventType>> = {
  dataHubAccessTokenKey: 'RevokeAccessTokenEvent',
  dataHubPolicyKey: 'DeletePolicyEvent',
};

/**
 * The event type of a change log: a write (UPSERT, CREATE, CREATE_ENTITY, PATCH, UPDATE) of an
 * access token, ingestion source, policy or user aspect is that resource's create or update event,
 * of any other aspect UpdateAspectEvent; a DELETE of an access token's key is RevokeAccessTokenEvent,
 * of a policy's key DeletePolicyEvent, of anything else DeleteEntityEvent; RESTATE (and any other
 * change type) is EntityEvent.
 */
export function auditEventTypeOfChange(changeType: string, aspectName: string | undefined): AuditEventType {
  const aspect = aspectName ?? '';
  if (WRITES.has(changeType)) {
    if (Object.hasOwn(WRITE_EVENTS, aspect)) return WRITE_EVENTS[aspect]!;
    return USER_ASPECTS.has(aspect) ? 'UpdateUserEvent' : 'UpdateAspectEvent';
  }
  if (changeType === 'DELETE') {
    return Object.hasOwn(DELETE_EVENTS, aspect) ? DELETE_EVENTS[aspect]! : 'DeleteEntityEvent';
  }
  return 'EntityEvent';
}
