import { createHash, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { AuthSettings } from '../auth-settings.js';

/** The lifetimes `createAccessToken` offers (GraphQL enum AccessTokenDuration). */
export type AccessTokenDuration =
  | 'ONE_HOUR'
  | 'ONE_DAY'
  | 'ONE_WEEK'
  | 'ONE_MONTH'
  | 'THREE_MONTHS'
  | 'SIX_MONTHS'
  | 'ONE_YEAR'
  | 'NO_EXPIRY';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Milliseconds per duration, as the ecosystem maps them (a month is 30 days); NO_EXPIRY has none. */
export const ACCESS_TOKEN_DURATION_MS: Readonly<Record<AccessTokenDuration, number | null>> = Object.freeze({
  ONE_HOUR: HOUR_MS,
  ONE_DAY: DAY_MS,
  ONE_WEEK: 7 * DAY_MS,
  ONE_MONTH: 30 * DAY_MS,
  THREE_MONTHS: 90 * DAY_MS,
  SIX_MONTHS: 180 * DAY_MS,
  ONE_YEAR: 365 * DAY_MS,
  NO_EXPIRY: null,
});

export type TokenType = 'SESSION' | 'PERSONAL';

/** The claims of a token this service signed, after every check passed. */
export interface VerifiedToken {
  readonly actorId: string;
  readonly actorType: string;
  readonly type: TokenType;
  readonly version: string;
  /** Epoch milliseconds; absent for a token that never expires. */
  readonly expiresAt?: number;
  /** urn:li:dataHubAccessToken:<id> for PERSONAL tokens */
  readonly tokenUrn?: string;
}

export interface IssuedAccessToken {
  readonly token: string;
  /** The hash that names the token entity (see `TokenService.tokenId`). */
  readonly id: string;
  readonly urn: string;
  readonly createdAt: number;
  readonly expiresAt?: number;
}

/** A token was refused. The message says why and never contains the token. */
export class TokenError extends Error {
  constructor(
    message: string,
    /** Set when an expired PERSONAL token was presented: the caller deletes its entity. */
    readonly expiredTokenUrn?: string,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

export const ACCESS_TOKEN_URN_PREFIX = 'urn:li:dataHubAccessToken:';
export const MALFORMED_ACTOR_CLAIM =
  "Failed to validate DataHub token: Found malformed or missing 'actor' claim.";

const ALGORITHM = 'HS256';
const SESSION_VERSION = '1';
const PERSONAL_VERSION = '2';
const ACTOR_TYPE = 'USER';

/** How many verified tokens are remembered (a few MB at most). */
const VERIFIED_CACHE_SIZE = 10_000;

type TokenSettings = Pick<AuthSettings, 'signingKey' | 'salt' | 'issuer' | 'sessionTokenDurationMs'>;

/** Mints and checks the service's own JWTs: session tokens (logins) and personal access tokens. */
export class TokenService {
  readonly #key: KeyObject;
  readonly #settings: TokenSettings;
  readonly #now: () => number;
  /**
   * Tokens whose signature and claims checked out, by the token text: a client sends the same token
   * with every request, and HMAC verification and claim parsing then happen once per token, not per
   * request. Expiry is checked again on every hit; revocation and the actor's state are the caller's
   * checks, made every time. Bounded: the oldest entry goes when it is full.
   */
  readonly #verified = new Map<string, VerifiedToken>();

  constructor(settings: TokenSettings, now: () => number = Date.now) {
    // The ecosystem uses the key string's own bytes, not its base64 decoding: tokens stay interchangeable.
    // A KeyObject is imported once; jose would import raw bytes again on every call.
    this.#key = createSecretKey(Buffer.from(settings.signingKey, 'utf8'));
    this.#settings = settings;
    this.#now = now;
  }

  /** A version 1 SESSION token that expires after SESSION_TOKEN_DURATION_MS. */
  issueSessionToken(actorId: string): Promise<string> {
    return this.#sign(
      actorId,
      'SESSION',
      SESSION_VERSION,
      this.#now() + this.#settings.sessionTokenDurationMs,
    );
  }

  /** A version 2 PERSONAL token; it is valid only while the entity named by the returned urn exists. */
  async issueAccessToken(actorId: string, duration: AccessTokenDuration): Promise<IssuedAccessToken> {
    const lifetime = ACCESS_TOKEN_DURATION_MS[duration];
    const createdAt = this.#now();
    const expiresAt = lifetime === null ? undefined : createdAt + lifetime;
    const token = await this.#sign(actorId, 'PERSONAL', PERSONAL_VERSION, expiresAt);
    const id = this.tokenId(token);
    return {
      token,
      id,
      urn: ACCESS_TOKEN_URN_PREFIX + id,
      createdAt,
      ...(expiresAt === undefined ? {} : { expiresAt }),
    };
  }

  /**
   * Checks, in the ecosystem's order: signature (HS256 only), expiry, actor claims, then issuer.
   * Throws a TokenError; for an expired PERSONAL token it carries the token's urn.
   */
  async verify(token: string): Promise<VerifiedToken> {
    const known = this.#verified.get(token);
    if (known !== undefined && (known.expiresAt === undefined || known.expiresAt > this.#now())) return known;
    if (known !== undefined) this.#verified.delete(token);
    const verified = await this.#verifyFully(token);
    if (this.#verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.#verified.keys().next().value;
      if (oldest !== undefined) this.#verified.delete(oldest);
    }
    this.#verified.set(token, verified);
    return verified;
  }

  async #verifyFully(token: string): Promise<VerifiedToken> {
    const claims = await this.#verifySignatureAndExpiry(token);
    const { type, actorId, actorType, version } = claims;
    if (typeof type !== 'string' || typeof actorId !== 'string' || typeof actorType !== 'string') {
      throw new TokenError(MALFORMED_ACTOR_CLAIM);
    }
    if (actorId.length === 0 || actorType.length === 0) throw new TokenError(MALFORMED_ACTOR_CLAIM);
    if (type !== 'SESSION' && type !== 'PERSONAL')
      throw new TokenError(`token type '${type}' is not supported`);
    if (claims.iss !== this.#settings.issuer) throw new TokenError('token was not issued by this service');
    return {
      actorId,
      actorType,
      type,
      version:
        typeof version === 'string' ? version : type === 'PERSONAL' ? PERSONAL_VERSION : SESSION_VERSION,
      ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp * 1000 } : {}),
      ...(type === 'PERSONAL' ? { tokenUrn: this.tokenUrn(token) } : {}),
    };
  }

  /** Names a personal token's entity: Base64(SHA-256(token bytes ‖ salt bytes)). */
  tokenId(token: string): string {
    return createHash('sha256').update(token, 'utf8').update(this.#settings.salt, 'utf8').digest('base64');
  }

  tokenUrn(token: string): string {
    return ACCESS_TOKEN_URN_PREFIX + this.tokenId(token);
  }

  #sign(actorId: string, type: TokenType, version: string, expiresAtMs: number | undefined): Promise<string> {
    const jwt = new SignJWT({ version, type, actorType: ACTOR_TYPE, actorId })
      .setProtectedHeader({ alg: ALGORITHM })
      .setSubject(actorId)
      .setJti(randomUUID())
      .setIssuer(this.#settings.issuer);
    // JWT times are whole seconds; rounding down never extends a token's life.
    if (expiresAtMs !== undefined) jwt.setExpirationTime(Math.floor(expiresAtMs / 1000));
    return jwt.sign(this.#key);
  }

  async #verifySignatureAndExpiry(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: [ALGORITHM],
        currentDate: new Date(this.#now()),
      });
      return payload;
    } catch (error) {
      throw this.#refusal(error, token);
    }
  }

  #refusal(error: unknown, token: string): TokenError {
    if (error instanceof errors.JWTExpired) {
      // jose checks claims only after the signature held, so this payload is ours and can be trusted.
      const expiredTokenUrn = error.payload.type === 'PERSONAL' ? this.tokenUrn(token) : undefined;
      return new TokenError('Failed to validate DataHub token. Token has expired.', expiredTokenUrn);
    }
    if (error instanceof errors.JOSEAlgNotAllowed) return new TokenError('token algorithm is not HS256');
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return new TokenError('token signature is invalid');
    if (error instanceof errors.JWTClaimValidationFailed)
      return new TokenError(`token claim '${error.claim}' is invalid`);
    if (error instanceof errors.JOSEError) return new TokenError('token is malformed');
    return new TokenError('token could not be verified');
  }
}
