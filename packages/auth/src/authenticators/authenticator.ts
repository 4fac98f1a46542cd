import type { Authentication, AuthenticationMethod } from '../types.js';

/** What a request offers to prove who it is, as the gateway extracted it. */
export interface AuthenticationInput {
  readonly authorization?: string;
  /** legacy X-DataHub-Actor, only honoured with auth off */
  readonly actorHeader?: string;
  /** a session token from a cookie */
  readonly sessionToken?: string;
}

export type AuthenticationOutcome =
  | { readonly ok: true; readonly authentication: Authentication }
  | {
      readonly ok: false;
      /** why, for DEBUG logs; never contains a credential */
      readonly reason: string;
    };

export const CORP_USER_PREFIX = 'urn:li:corpuser:';

export function corpUserUrn(actorId: string): string {
  return CORP_USER_PREFIX + actorId;
}

export function authenticated(
  actorId: string,
  method: AuthenticationMethod,
  isSystem = false,
): AuthenticationOutcome {
  return { ok: true, authentication: { actorUrn: corpUserUrn(actorId), actorId, method, isSystem } };
}

export function refused(reason: string): AuthenticationOutcome {
  return { ok: false, reason };
}
