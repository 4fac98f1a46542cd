import { TokenError, type RequestOrigin } from '@catalog/auth';
import type { Logger } from '@catalog/runtime';
import type { GatewayAuth, PlatformEventInput } from '../auth/gateway-auth.js';
import type { LoginAttempt, LoginThrottle } from '../auth/login-throttle.js';
import { corpUserUrn } from './identity-tokens.js';
import type { SessionDenialReason } from './login-eligibility.js';
import type { NativeUserService } from './native-user-service.js';

/** A session opened, or why the user (whose credentials were fine) gets none. */
export type Session =
  | { readonly ok: true; readonly accessToken: string; readonly actor: string }
  | { readonly ok: false; readonly denial: SessionDenialReason };

/**
 * Logging in and out (the login routes and the GMS `/auth/*` endpoints): sessions are opened only for
 * users who may have one, each login recorded as a platform event; a logout revokes the session token
 * for good; password checks are throttled per user and address. Sign-up, credential checks and resets
 * are the native users' use cases (`users`).
 */
export class Sessions {
  constructor(
    private readonly auth: GatewayAuth,
    /** The native users: sign-up, credential checks, resets. */
    readonly users: NativeUserService,
    private readonly logger: Logger,
  ) {}

  /** How long a session lasts, what the guest login is, which user is the system client. */
  get settings(): {
    readonly sessionTokenDurationMs: number;
    readonly guest: { readonly enabled: boolean; readonly user: string };
    readonly systemClientId: string;
  } {
    return this.auth.settings;
  }

  /** Password checks taken so far by user and address (429 with Retry-After once past their budget). */
  get throttle(): Pick<LoginThrottle, 'check' | 'failed' | 'succeeded'> {
    return this.auth.loginThrottle;
  }

  /** A session token for the user and its LogInEvent, unless the user may not have a session. */
  async open(origin: RequestOrigin, userId: string, loginSource: string | undefined): Promise<Session> {
    const actor = corpUserUrn(userId);
    const denial = await this.users.sessionDenialReason(actor);
    if (denial !== undefined) {
      this.logger.info({ actorUrn: actor, loginDenialReason: denial }, 'session refused');
      return { ok: false, denial };
    }
    const accessToken = await this.auth.tokens.issueSessionToken(userId);
    await this.record(origin, { name: 'LogInEvent', actorUrn: actor, fields: { loginSource } });
    return { ok: true, accessToken, actor };
  }

  /**
   * Revokes the session tokens given for good, skipping those that are not valid session tokens of this
   * service (only a holder of a real session can cause a store write). Returns how many were revoked.
   */
  async revoke(tokens: readonly string[]): Promise<number> {
    let revoked = 0;
    for (const token of new Set(tokens)) {
      let type;
      try {
        type = (await this.auth.tokens.verify(token)).type;
      } catch (error) {
        if (error instanceof TokenError) continue;
        throw error;
      }
      const tokenUrn = this.auth.tokens.tokenUrn(token);
      if (type !== 'SESSION' || (await this.auth.accessTokens.isSessionRevoked(tokenUrn))) continue;
      await this.auth.accessTokens.revokeSession(tokenUrn);
      revoked++;
    }
    return revoked;
  }

  /** A failed password check, recorded as a FailedLogInEvent. */
  failedLogin(
    origin: RequestOrigin,
    attempt: LoginAttempt,
    fields: PlatformEventInput['fields'],
  ): Promise<void> {
    return this.record(origin, {
      name: 'FailedLogInEvent',
      actorUrn: attempt.user,
      ...(fields ? { fields } : {}),
    });
  }

  /**
   * Publishes a login event. A failure to record it is logged and does not fail the login: the audit
   * trail is best effort here, as the ecosystem's span events are.
   */
  private async record(origin: RequestOrigin, event: Omit<PlatformEventInput, 'origin'>): Promise<void> {
    try {
      await this.auth.events.publish({ ...event, origin });
    } catch (error) {
      this.logger.warn(
        { err: error, event: event.name, actorUrn: event.actorUrn },
        'login event not recorded',
      );
    }
  }
}
