import type { Logger } from '@catalog/runtime';
import { TokenError, type TokenService } from '../tokens/token-service.js';
import type { AccessTokenRegistry } from '../types.js';
import { authenticated, refused, type AuthenticationOutcome } from './authenticator.js';

/**
 * The service's own JWTs: session tokens (logins) and personal access tokens. A personal token is
 * valid only while its entity exists; an expired one is deleted when it is presented. A session token
 * is valid until it expires or a logout revokes it.
 * Whether the actor is still active is the chain's check, shared with the other authenticators.
 */
export class DataHubTokenAuthenticator {
  readonly #tokens: TokenService;
  readonly #accessTokens: AccessTokenRegistry;
  readonly #logger: Logger;

  constructor(deps: { tokens: TokenService; accessTokens: AccessTokenRegistry; logger: Logger }) {
    this.#tokens = deps.tokens;
    this.#accessTokens = deps.accessTokens;
    this.#logger = deps.logger;
  }

  async authenticate(token: string): Promise<AuthenticationOutcome> {
    let verified;
    try {
      verified = await this.#tokens.verify(token);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      if (error.expiredTokenUrn !== undefined) await this.#deleteExpired(error.expiredTokenUrn);
      return refused(error.message);
    }
    if (verified.type === 'PERSONAL') {
      if (verified.tokenUrn === undefined || !(await this.#accessTokens.exists(verified.tokenUrn))) {
        return refused('access token has been revoked or was never stored');
      }
      return authenticated(verified.actorId, 'access-token');
    }
    // Session tokens are stateless; a logout is the one thing that ends one before its expiry.
    if (await this.#accessTokens.isSessionRevoked(this.#tokens.tokenUrn(token))) {
      return refused('session token was revoked by a logout');
    }
    return authenticated(verified.actorId, 'session-token');
  }

  async #deleteExpired(tokenUrn: string): Promise<void> {
    try {
      await this.#accessTokens.revoke(tokenUrn);
    } catch (error) {
      // The request is refused either way; a token left behind is deleted the next time it is shown.
      // The urn is a salted hash, safe to log; the token itself never is.
      this.#logger.warn({ tokenUrn, error: describe(error) }, 'could not delete an expired access token');
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
