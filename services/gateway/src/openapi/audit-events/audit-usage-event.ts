import { isLoginEventType, type AuditEvent } from '../../application/audit-search.js';

/** The stored loginSource (the `X-DataHubLoginSource` header's camel value) → the response's enum name. */
const LOGIN_SOURCE_NAMES: ReadonlyMap<string, string> = new Map([
  ['passwordReset', 'PASSWORD_RESET'],
  ['passwordLogin', 'PASSWORD_LOGIN'],
  ['fallbackLogin', 'FALLBACK_LOGIN'],
  ['signUpLinkLogin', 'SIGN_UP_LINK_LOGIN'],
  ['guestLogin', 'GUEST_LOGIN'],
  ['ssoLogin', 'SSO_LOGIN'],
  ['oidcImplicitLogin', 'OIDC_IMPLICIT_LOGIN'],
]);
const LOGIN_SOURCE_ENUM: ReadonlySet<string> = new Set(LOGIN_SOURCE_NAMES.values());

/** The eventSource values of spec 2.8; any other stored value is left out of the response. */
const EVENT_SOURCES: ReadonlySet<string> = new Set(['RESTLI', 'OPENAPI', 'GRAPHQL', 'SSO_SCIM']);

/** The enum name of a stored loginSource (an enum name passes through); undefined for an unknown one. */
export function loginSourceName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return LOGIN_SOURCE_NAMES.get(value) ?? (LOGIN_SOURCE_ENUM.has(value) ? value : undefined);
}

/** One item of the response's usageEvents (spec 2.8). */
export type UsageEvent = Readonly<Record<string, unknown>>;

/**
 * An audit event as the search answers it: the common fields, the entity fields of entity and change
 * events, loginSource (as its enum name) and loginDenialReason of login events, and the stored record
 * as rawUsageEvent when asked for. Absent and null fields are left out.
 */
export function usageEventOf(event: AuditEvent, includeRaw: boolean): UsageEvent {
  const out: Record<string, unknown> = {
    eventType: event.eventType,
    timestamp: event.timestamp,
    actorUrn: event.actorUrn,
  };
  const put = (name: string, value: unknown) => {
    if (value !== undefined && value !== null) out[name] = value;
  };
  put('sourceIP', event.sourceIP);
  put(
    'eventSource',
    typeof event.eventSource === 'string' && EVENT_SOURCES.has(event.eventSource)
      ? event.eventSource
      : undefined,
  );
  put('userAgent', event.userAgent);
  put('telemetryTraceId', event.telemetryTraceId);
  if (isLoginEventType(event.eventType)) {
    put('loginSource', loginSourceName(event.loginSource));
    put('loginDenialReason', event.loginDenialReason);
  } else {
    put('entityUrn', event.entityUrn);
    put('entityType', event.entityType);
    put('aspectName', event.aspectName);
  }
  if (includeRaw) put('rawUsageEvent', event.rawUsageEvent);
  return out;
}
