import type { Logger } from '@catalog/runtime';
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import type { ExternalOAuthSettings } from '../auth-settings.js';
import type { ServiceAccountProvisioner } from '../types.js';
import { authenticated, corpUserUrn, refused, type AuthenticationOutcome } from './authenticator.js';
import { OAuthSigningKeys, SigningKeysUnavailable } from './oauth-signing-keys.js';

/** The refusal texts the ecosystem documents for external tokens. */
export const OAUTH_NOT_CONFIGURED = 'OAuth authenticator is not configured';
export const OAUTH_UNTRUSTED_ISSUER = 'No configured OAuth provider matches token issuer';
export const OAUTH_BAD_AUDIENCE = 'Invalid or missing audience claim';
export const OAUTH_KEYS_UNAVAILABLE = 'Failed to load signing keys';

const VALIDATION_FAILED = 'OAuth token validation failed';

/**
 * The user id of an external identity: unique per issuer, so a subject moving between identity
 * providers does not become someone else (`https://auth.example.com` + `svc` →
 * `__oauth_auth_example_com_svc`).
 */
export function oauthServiceAccountId(issuer: string, subject: string): string {
  const sanitizedIssuer = issuer.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9]/g, '_');
  return `__oauth_${sanitizedIssuer}_${subject}`;
}

/**
 * JWTs from a trusted external identity provider (EXTERNAL_OAUTH_*). Each identity becomes a service
 * account the first time it is seen. The algorithm is pinned to the configured one, so a token cannot
 * choose how it is checked (e.g. HS256 keyed with the provider's public key).
 */
export class ExternalOAuthAuthenticator {
  readonly #settings: ExternalOAuthSettings;
  readonly #serviceAccounts: ServiceAccountProvisioner;
  readonly #logger: Logger;
  readonly #keys: OAuthSigningKeys | undefined;

  constructor(
    settings: ExternalOAuthSettings,
    deps: { serviceAccounts: ServiceAccountProvisioner; logger: Logger },
  ) {
    this.#settings = settings;
    this.#serviceAccounts = deps.serviceAccounts;
    this.#logger = deps.logger;
    this.#keys = isConfigured(settings) ? new OAuthSigningKeys(settings) : undefined;
  }

  async authenticate(token: string): Promise<AuthenticationOutcome> {
    if (this.#keys === undefined) return refused(OAUTH_NOT_CONFIGURED);

    // Read unverified, only to pick the provider; nothing here is trusted until the signature holds.
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return refused(`${VALIDATION_FAILED}: the token is not a JWT`);
    }
    if (typeof issuer !== 'string' || !this.#settings.trustedIssuers.includes(issuer)) {
      return refused(OAUTH_UNTRUSTED_ISSUER);
    }

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#keys.getKey, {
        issuer,
        algorithms: [this.#settings.algorithm],
        clockTolerance: this.#settings.clockToleranceSeconds,
        // A token without an expiry would be a bearer credential forever.
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return this.#refusal(error);
    }
    const timing = this.#timingProblem(payload);
    if (timing !== undefined) return refused(`${VALIDATION_FAILED}: ${timing}`);

    if (!hasAllowedAudience(payload.aud, this.#settings.allowedAudiences)) return refused(OAUTH_BAD_AUDIENCE);
    const subject = payload[this.#settings.userIdClaim];
    if (typeof subject !== 'string' || subject.length === 0) {
      return refused(`Missing required claim: ${this.#settings.userIdClaim}`);
    }

    const actorId = oauthServiceAccountId(issuer, subject);
    await this.#serviceAccounts.ensure({ actorUrn: corpUserUrn(actorId), issuer, subject });
    return authenticated(actorId, 'external-jwt');
  }

  /**
   * What jose leaves unchecked: `iat` in the future (it checks it only against a maximum age) and how
   * long the issuer made the token valid. exp - iat, or exp - now without `iat`, is the lifetime: a
   * stolen token is usable that long, so a provider minting ten-year tokens is refused.
   */
  #timingProblem(payload: JWTPayload): string | undefined {
    const now = Math.floor(Date.now() / 1000);
    const { iat, exp } = payload;
    if (iat !== undefined && iat > now + this.#settings.clockToleranceSeconds) {
      return 'the token was issued in the future (iat)';
    }
    if (exp === undefined) return 'the token has no expiry (exp)';
    const lifetime = exp - (iat ?? now);
    if (lifetime > this.#settings.maxTokenLifetimeSeconds) {
      return `the token's lifetime exceeds the maximum of ${this.#settings.maxTokenLifetimeSeconds} seconds`;
    }
    return undefined;
  }

  #refusal(error: unknown): AuthenticationOutcome {
    if (error instanceof SigningKeysUnavailable) {
      // The cause (connection refused, timeout, bad key set) is what an operator needs; it holds no token.
      this.#logger.debug({ cause: error.message }, 'external OAuth signing keys could not be loaded');
      return refused(OAUTH_KEYS_UNAVAILABLE);
    }
    if (error instanceof errors.JWTExpired) return refused(`${VALIDATION_FAILED}: the token has expired`);
    if (error instanceof errors.JOSEAlgNotAllowed)
      return refused(`${VALIDATION_FAILED}: algorithm not allowed`);
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return refused(`${VALIDATION_FAILED}: signature verification failed`);
    }
    if (error instanceof errors.JWKSNoMatchingKey)
      return refused(`${VALIDATION_FAILED}: no signing key matches`);
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'exp' && error.reason === 'missing') {
        return refused(`${VALIDATION_FAILED}: the token has no expiry (exp)`);
      }
      if (error.claim === 'nbf' && error.reason === 'check_failed') {
        return refused(`${VALIDATION_FAILED}: the token is not valid yet (nbf)`);
      }
      return refused(`${VALIDATION_FAILED}: claim '${error.claim}' is invalid`);
    }
    if (error instanceof errors.JOSEError) return refused(`${VALIDATION_FAILED}: ${error.code}`);
    // e.g. jose refusing an RSA key shorter than 2048 bits: still a token that cannot be trusted.
    this.#logger.debug(
      { cause: error instanceof Error ? error.message : String(error) },
      'external token check failed',
    );
    return refused(VALIDATION_FAILED);
  }
}

function isConfigured(settings: ExternalOAuthSettings): boolean {
  return (
    settings.enabled &&
    settings.trustedIssuers.length > 0 &&
    settings.allowedAudiences.length > 0 &&
    (settings.jwksUri !== undefined || settings.discoveryUri !== undefined)
  );
}

function hasAllowedAudience(aud: JWTPayload['aud'], allowed: readonly string[]): boolean {
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  return audiences.some((audience) => allowed.includes(audience));
}
