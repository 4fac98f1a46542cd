import type { AuthSettings } from '../auth-settings.js';
import {
  authenticated,
  CORP_USER_PREFIX,
  type AuthenticationInput,
  type AuthenticationOutcome,
} from './authenticator.js';

/**
 * With METADATA_SERVICE_AUTH_ENABLED=false every caller is trusted: it acts as the user named in the
 * legacy `X-DataHub-Actor` header, or else as the system client. Credentials are not looked at.
 */
export function authenticateWithAuthDisabled(
  input: AuthenticationInput,
  settings: Pick<AuthSettings, 'systemClientId'>,
): AuthenticationOutcome {
  const named = input.actorHeader?.trim();
  if (named?.startsWith(CORP_USER_PREFIX) && named.length > CORP_USER_PREFIX.length) {
    const actorId = named.slice(CORP_USER_PREFIX.length);
    return authenticated(actorId, 'auth-disabled', actorId === settings.systemClientId);
  }
  return authenticated(settings.systemClientId, 'auth-disabled', true);
}
