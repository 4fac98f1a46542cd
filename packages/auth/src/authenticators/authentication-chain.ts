import type { Logger } from '@catalog/runtime';
import { decodeJwt } from 'jose';
import type { AuthSettings } from '../auth-settings.js';
import type { TokenService } from '../tokens/token-service.js';
import type { AccessTokenRegistry, ActorDirectory, ServiceAccountProvisioner } from '../types.js';
import { authenticateWithAuthDisabled } from './auth-disabled.js';
import {
  corpUserUrn,
  refused,
  type AuthenticationInput,
  type AuthenticationOutcome,
} from './authenticator.js';
import { parseAuthorization } from './authorization-header.js';
import { DataHubTokenAuthenticator } from './datahub-token.js';
import { ExternalOAuthAuthenticator } from './external-oauth.js';
import { authenticateAsGuest } from './guest.js';
import { SystemClientAuthenticator } from './system-client.js';

export type { AuthenticationInput, AuthenticationOutcome } from './authenticator.js';
export {
  OAUTH_BAD_AUDIENCE,
  OAUTH_KEYS_UNAVAILABLE,
  OAUTH_NOT_CONFIGURED,
  OAUTH_UNTRUSTED_ISSUER,
  oauthServiceAccountId,
} from './external-oauth.js';

export interface AuthenticationChainDeps {
  readonly settings: AuthSettings;
  readonly tokens: TokenService;
  readonly actors: ActorDirectory;
  readonly accessTokens: AccessTokenRegistry;
  readonly serviceAccounts: ServiceAccountProvisioner;
  readonly logger: Logger;
}

/**
 * Turns a request's credentials into who it acts as, in the ecosystem's order: system client (Basic),
 * the service's own tokens (Bearer or session cookie), external OAuth JWTs, then guest.
 * A refusal is an outcome, not an exception; failures of the catalog itself do propagate.
 */
export class AuthenticationChain {
  readonly #settings: AuthSettings;
  readonly #actors: ActorDirectory;
  readonly #logger: Logger;
  readonly #systemClient: SystemClientAuthenticator;
  readonly #ownTokens: DataHubTokenAuthenticator;
  readonly #externalOAuth: ExternalOAuthAuthenticator;
  readonly #systemActorUrn: string;

  constructor(deps: AuthenticationChainDeps) {
    this.#settings = deps.settings;
    this.#actors = deps.actors;
    this.#logger = deps.logger;
    this.#systemClient = new SystemClientAuthenticator(deps.settings);
    this.#ownTokens = new DataHubTokenAuthenticator(deps);
    this.#externalOAuth = new ExternalOAuthAuthenticator(deps.settings.externalOAuth, deps);
    this.#systemActorUrn = corpUserUrn(deps.settings.systemClientId);
  }

  async authenticate(input: AuthenticationInput): Promise<AuthenticationOutcome> {
    const outcome = await this.#authenticate(input);
    if (outcome.ok) {
      this.#logger.trace(
        { actorUrn: outcome.authentication.actorUrn, method: outcome.authentication.method },
        'authenticated',
      );
    } else {
      // DATAHUB_GMS_LOG_LEVEL=DEBUG shows why a request was refused; reasons never hold credentials.
      this.#logger.debug({ reason: outcome.reason }, 'authentication refused');
    }
    return outcome;
  }

  /** Active = (key exists when settings.enforceExistence) AND not removed AND not suspended; the system actor always */
  async isActive(actorUrn: string): Promise<boolean> {
    if (actorUrn === this.#systemActorUrn) return true;
    const state = await this.#actors.actorState(actorUrn);
    if (this.#settings.enforceExistence && !state.exists) return false;
    return !state.removed && !state.suspended;
  }

  async #authenticate(input: AuthenticationInput): Promise<AuthenticationOutcome> {
    if (!this.#settings.enabled) return authenticateWithAuthDisabled(input, this.#settings);

    const header = parseAuthorization(input.authorization);
    if (header !== undefined) {
      if (header.scheme === 'basic') return this.#systemClient.authenticate(header.credentials);
      if (header.scheme === 'bearer') return this.#onlyIfActive(await this.#bearer(header.credentials));
      // The scheme is not echoed: a bare token with no scheme would land in the log.
      return refused('unsupported Authorization scheme');
    }
    const cookieToken = input.sessionToken?.trim();
    if (cookieToken) {
      if (!this.#isOwnToken(cookieToken))
        return refused('session cookie does not hold a token of this service');
      return this.#onlyIfActive(await this.#ownTokens.authenticate(cookieToken));
    }
    return authenticateAsGuest(this.#settings);
  }

  #bearer(token: string): Promise<AuthenticationOutcome> {
    if (token.length === 0) return Promise.resolve(refused('Bearer token is empty'));
    if (this.#isOwnToken(token)) return this.#ownTokens.authenticate(token);
    return this.#externalOAuth.authenticate(token);
  }

  /** Ours when its (unverified) issuer is this service's: only a routing hint, the signature decides. */
  #isOwnToken(token: string): boolean {
    try {
      return decodeJwt(token).iss === this.#settings.issuer;
    } catch {
      return false;
    }
  }

  async #onlyIfActive(outcome: AuthenticationOutcome): Promise<AuthenticationOutcome> {
    if (!outcome.ok) return outcome;
    // A suspended, soft-deleted or (with existence enforced) hard-deleted user loses every token at once.
    if (!(await this.isActive(outcome.authentication.actorUrn))) return refused('actor is not active');
    return outcome;
  }
}
