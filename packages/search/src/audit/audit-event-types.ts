/**
 * The audit event types (spec section 6): what the audit consumer records and the audit search accepts
 * in `eventTypes`, in the spec's order.
 */
export const AUDIT_EVENT_TYPES = [
  'EntityEvent',
  'CreateUserEvent',
  'UpdateUserEvent',
  'CreateAccessTokenEvent',
  'RevokeAccessTokenEvent',
  'CreatePolicyEvent',
  'UpdatePolicyEvent',
  'DeletePolicyEvent',
  'CreateIngestionSourceEvent',
  'UpdateIngestionSourceEvent',
  'DeleteEntityEvent',
  'UpdateAspectEvent',
  'LogInEvent',
  'FailedLogInEvent',
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * The login events: they come from platform events (the gateway's logins), not change logs, and carry
 * loginSource (and loginDenialReason) instead of the entity fields.
 */
export const LOGIN_EVENT_TYPES: readonly AuditEventType[] = ['LogInEvent', 'FailedLogInEvent'];

const KNOWN: ReadonlySet<string> = new Set(AUDIT_EVENT_TYPES);

export function isAuditEventType(value: string): value is AuditEventType {
  return KNOWN.has(value);
}

export function isLoginEventType(value: string): boolean {
  return (LOGIN_EVENT_TYPES as readonly string[]).includes(value);
}
