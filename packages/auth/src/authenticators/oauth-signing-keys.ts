import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';

/** The identity provider's keys could not be had: its fault or the network's, never the token's. */
export class SigningKeysUnavailable extends Error {
  constructor(detail: string) {
    super(`Failed to load signing keys: ${detail}`);
    this.name = 'SigningKeysUnavailable';
  }
}

const FETCH_TIMEOUT_MS = 5_000;

/**
 * The signing keys of the external identity provider, from EXTERNAL_OAUTH_JWKS_URI or from the
 * `jwks_uri` of the EXTERNAL_OAUTH_DISCOVERY_URI document. jose caches the key set (and refetches it
 * when a token names an unknown key); the discovery document is read once, and read again on a later
 * request when that failed.
 */
export class OAuthSigningKeys {
  readonly #source: { readonly jwksUri?: string; readonly discoveryUri?: string };
  readonly #sets = new Map<string, JWTVerifyGetKey>();
  #discoveredJwksUri: Promise<string> | undefined;

  constructor(source: { readonly jwksUri?: string; readonly discoveryUri?: string }) {
    this.#source = source;
  }

  /** A key lookup for jwtVerify; any failure to load keys surfaces as SigningKeysUnavailable. */
  async resolver(): Promise<JWTVerifyGetKey> {
    const set = this.#setFor(await this.#jwksUri());
    return async (header, token) => {
      try {
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
        // Timeouts, refused connections, non-200 answers, malformed key sets.
        throw new SigningKeysUnavailable(describe(error));
      }
    };
  }

  #jwksUri(): Promise<string> {
    if (this.#source.jwksUri !== undefined) return Promise.resolve(this.#source.jwksUri);
    const discoveryUri = this.#source.discoveryUri;
    if (discoveryUri === undefined)
      return Promise.reject(new SigningKeysUnavailable('no JWKS or discovery URI'));
    if (this.#discoveredJwksUri === undefined) {
      const pending = discoverJwksUri(discoveryUri);
      this.#discoveredJwksUri = pending;
      // A failed discovery is not remembered: the provider may be back by the next request.
      pending.catch(() => {
        if (this.#discoveredJwksUri === pending) this.#discoveredJwksUri = undefined;
      });
    }
    return this.#discoveredJwksUri;
  }

  #setFor(uri: string): JWTVerifyGetKey {
    let set = this.#sets.get(uri);
    if (set === undefined) {
      if (!URL.canParse(uri)) throw new SigningKeysUnavailable('the JWKS URI is not a URL');
      set = createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS });
      this.#sets.set(uri, set);
    }
    return set;
  }
}

async function discoverJwksUri(discoveryUri: string): Promise<string> {
  let document: unknown;
  try {
    const response = await fetch(discoveryUri, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (response.status !== 200) throw new Error(`discovery document answered HTTP ${response.status}`);
    document = await response.json();
  } catch (error) {
    throw new SigningKeysUnavailable(describe(error));
  }
  const jwksUri =
    typeof document === 'object' && document !== null ? Reflect.get(document, 'jwks_uri') : undefined;
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri) || !/^https?:$/.test(new URL(jwksUri).protocol)) {
    throw new SigningKeysUnavailable('discovery document has no usable jwks_uri');
  }
  return jwksUri;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, …) in its cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error.message + cause;
}
