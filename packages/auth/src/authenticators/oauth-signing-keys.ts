import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';

/** The identity provider's keys could not be had: its fault or the network's, never the token's. */
export class SigningKeysUnavailable extends Error {
  constructor(detail: string) {
    super(`Failed to load signing keys: ${detail}`);
    this.name = 'SigningKeysUnavailable';
  }
}

export interface SigningKeysSource {
  readonly jwksUri?: string;
  readonly discoveryUri?: string;
  /** How long one fetch (discovery document or key set) may take. */
  readonly signingKeysFetchTimeoutMs: number;
  /** After a failed fetch, how long lookups fail at once instead of fetching again. */
  readonly signingKeysRetryAfterFailureMs: number;
}

/**
 * The signing keys of the external identity provider, from EXTERNAL_OAUTH_JWKS_URI or from the
 * `jwks_uri` of the EXTERNAL_OAUTH_DISCOVERY_URI document.
 *
 * jose's remote key set caches the keys (`cacheMaxAge`, 10 min), refetches at most every
 * `cooldownDuration` (30 s) for a token naming an unknown key, bounds each fetch (`timeoutDuration`)
 * and shares one fetch among the lookups waiting on it. What it does not do is remember a failure: each
 * lookup after a failed fetch starts another, so a provider that hangs would cost every request the
 * whole timeout. Hence the negative cache here: after a failure, lookups fail at once for
 * `signingKeysRetryAfterFailureMs`, and the first one after that window tries again. The discovery
 * document is read once (one read shared by concurrent lookups) and again only after a failure.
 */
export class OAuthSigningKeys {
  readonly #source: SigningKeysSource;
  readonly #now: () => number;
  readonly #sets = new Map<string, JWTVerifyGetKey>();
  #discoveredJwksUri: Promise<string> | undefined;
  #failure: { readonly until: number; readonly detail: string } | undefined;

  constructor(source: SigningKeysSource, now: () => number = Date.now) {
    this.#source = source;
    this.#now = now;
  }

  /** A key lookup for jwtVerify; any failure to load keys surfaces as SigningKeysUnavailable. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const failure = this.#failure;
    if (failure !== undefined && this.#now() < failure.until) {
      throw new SigningKeysUnavailable(`${failure.detail} (not retried before the failure window ends)`);
    }
    try {
      const set = this.#setFor(await this.#jwksUri());
      return await set(header, token);
    } catch (error) {
      // These say the token names a key or algorithm the provider does not have: the token is bad.
      if (
        error instanceof errors.JWKSNoMatchingKey ||
        error instanceof errors.JWKSMultipleMatchingKeys ||
        error instanceof errors.JOSENotSupported
      ) {
        throw error;
      }
      // Timeouts, refused connections, non-200 answers, malformed key sets or discovery documents.
      const detail = describe(error);
      this.#failure = { until: this.#now() + this.#source.signingKeysRetryAfterFailureMs, detail };
      throw new SigningKeysUnavailable(detail);
    }
  };

  #jwksUri(): Promise<string> {
    if (this.#source.jwksUri !== undefined) return Promise.resolve(this.#source.jwksUri);
    const discoveryUri = this.#source.discoveryUri;
    if (discoveryUri === undefined) return Promise.reject(new KeySourceProblem('no JWKS or discovery URI'));
    if (this.#discoveredJwksUri === undefined) {
      const pending = discoverJwksUri(discoveryUri, this.#source.signingKeysFetchTimeoutMs);
      this.#discoveredJwksUri = pending;
      // Forgotten on failure; the negative cache decides when the next lookup may read it again.
      pending.catch(() => {
        if (this.#discoveredJwksUri === pending) this.#discoveredJwksUri = undefined;
      });
    }
    return this.#discoveredJwksUri;
  }

  #setFor(uri: string): JWTVerifyGetKey {
    let set = this.#sets.get(uri);
    if (set === undefined) {
      if (!URL.canParse(uri)) throw new KeySourceProblem('the JWKS URI is not a URL');
      set = createRemoteJWKSet(new URL(uri), { timeoutDuration: this.#source.signingKeysFetchTimeoutMs });
      this.#sets.set(uri, set);
    }
    return set;
  }
}

/** A failure found while locating the key set (its message is the detail, without the prefix). */
class KeySourceProblem extends Error {}

async function discoverJwksUri(discoveryUri: string, timeoutMs: number): Promise<string> {
  let document: unknown;
  try {
    const response = await fetch(discoveryUri, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) throw new Error(`discovery document answered HTTP ${response.status}`);
    document = await response.json();
  } catch (error) {
    throw new KeySourceProblem(describe(error));
  }
  const jwksUri =
    typeof document === 'object' && document !== null ? Reflect.get(document, 'jwks_uri') : undefined;
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri) || !/^https?:$/.test(new URL(jwksUri).protocol)) {
    throw new KeySourceProblem('discovery document has no usable jwks_uri');
  }
  return jwksUri;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, …) in its cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error.message + cause;
}
