import type { AuthSettings } from '../auth-settings.js';
import { authenticated, refused, type AuthenticationOutcome } from './authenticator.js';

/** GUEST_AUTHENTICATION_ENABLED: a request with no credentials at all acts as the guest user. */
export function authenticateAsGuest(settings: Pick<AuthSettings, 'guest'>): AuthenticationOutcome {
  if (!settings.guest.enabled) return refused('no credentials were presented');
  return authenticated(settings.guest.user, 'guest');
}
