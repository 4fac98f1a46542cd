import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExternalOAuthSettings } from '../auth-settings.js';
import { TokenService } from '../tokens/token-service.js';
import { AuthenticationChain, type AuthenticationOutcome } from './authentication-chain.js';
import {
  capturingLogger,
  FakeAccessTokenRegistry,
  FakeActorDirectory,
  FakeServiceAccounts,
  testSettings,
} from './chain-fakes.testing.js';

const ISSUER = 'https://auth.example.com';
const AUDIENCE = 'catalog-api';
const SUBJECT = 'service-account-123';
const SERVICE_ACCOUNT_URN = 'urn:li:corpuser:__oauth_auth_example_com_service-account-123';
const KID = 'test-key-1';

/** A local identity provider: a JWKS document and an OIDC discovery document pointing at it. */
class FakeIdentityProvider {
  readonly server: Server;
  jwks: { keys: JWK[] } = { keys: [] };
  jwksRequests = 0;
  discoveryRequests = 0;
  /** While set, the discovery document answers 503. */
  discoveryDown = false;
  /** While set, the key set never answers (the connection stays open). */
  jwksHangs = false;

  constructor() {
    this.server = createServer((request, response) => {
      if (request.url === '/jwks') {
        this.jwksRequests++;
        if (this.jwksHangs) return;
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.jwks));
      } else if (request.url === '/.well-known/openid-configuration') {
        this.discoveryRequests++;
        if (this.discoveryDown) {
          response.writeHead(503).end();
          return;
        }
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ issuer: ISSUER, jwks_uri: `${this.baseUrl}/jwks` }));
      } else {
        response.writeHead(404).end();
      }
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const provider = new FakeIdentityProvider();
let privateKey: CryptoKey;
let publicJwk: JWK;
let publicPem: string;
let otherPrivateKey: CryptoKey;

beforeAll(async () => {
  await provider.start();
  // Keys are made per run: nothing secret lives in the repository.
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  publicPem = await exportSPKI(pair.publicKey);
  provider.jwks = { keys: [publicJwk] };
  otherPrivateKey = (await generateKeyPair('RS256')).privateKey;
});

afterAll(async () => {
  await provider.stop();
});

function oauthSettings(overrides: Partial<ExternalOAuthSettings> = {}): ExternalOAuthSettings {
  return {
    enabled: true,
    trustedIssuers: [ISSUER],
    allowedAudiences: [AUDIENCE],
    jwksUri: `${provider.baseUrl}/jwks`,
    userIdClaim: 'sub',
    algorithm: 'RS256',
    clockToleranceSeconds: 30,
    maxTokenLifetimeSeconds: 3_600,
    signingKeysFetchTimeoutMs: 2_000,
    // Most cases here want a failed fetch retried at once; the negative cache has cases of its own.
    signingKeysRetryAfterFailureMs: 0,
    ...overrides,
  };
}

function setup(overrides: Partial<ExternalOAuthSettings> = {}) {
  const settings = testSettings({ externalOAuth: oauthSettings(overrides) });
  const actors = new FakeActorDirectory();
  const serviceAccounts = new FakeServiceAccounts(actors);
  const { logger, lines } = capturingLogger();
  const chain = new AuthenticationChain({
    settings,
    tokens: new TokenService(settings),
    actors,
    accessTokens: new FakeAccessTokenRegistry(),
    serviceAccounts,
    logger,
  });
  const bearer = (token: string) => chain.authenticate({ authorization: `Bearer ${token}` });
  return { chain, actors, serviceAccounts, lines, bearer };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface TokenOptions {
  readonly claims?: Record<string, unknown>;
  readonly key?: CryptoKey | Uint8Array;
  readonly alg?: string;
  readonly kid?: string;
}

/** An RS256 token from the provider, valid for five minutes unless claims say otherwise. */
function providerToken(options: TokenOptions = {}): Promise<string> {
  const claims = { iss: ISSUER, aud: AUDIENCE, sub: SUBJECT, exp: nowSeconds() + 300, ...options.claims };
  const withoutUndefined = Object.fromEntries(
    Object.entries(claims).filter(([, value]) => value !== undefined),
  );
  return new SignJWT(withoutUndefined)
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? KID })
    .sign(options.key ?? privateKey);
}

function reasonOf(outcome: AuthenticationOutcome): string | undefined {
  return outcome.ok ? undefined : outcome.reason;
}

describe('external OAuth authentication', () => {
  it('accepts a valid token as its service account and provisions that account', async () => {
    const { bearer, serviceAccounts } = setup();
    const outcome = await bearer(await providerToken());
    expect(outcome).toEqual({
      ok: true,
      authentication: {
        actorUrn: SERVICE_ACCOUNT_URN,
        actorId: '__oauth_auth_example_com_service-account-123',
        method: 'external-jwt',
        isSystem: false,
      },
    });
    expect(serviceAccounts.ensured).toEqual([
      { actorUrn: SERVICE_ACCOUNT_URN, issuer: ISSUER, subject: SUBJECT },
    ]);
  });

  it('accepts an audience list that contains an allowed audience', async () => {
    const { bearer } = setup();
    expect((await bearer(await providerToken({ claims: { aud: ['other', AUDIENCE] } }))).ok).toBe(true);
  });

  it('takes the user id from the configured claim', async () => {
    const { bearer } = setup({ userIdClaim: 'client_id' });
    const outcome = await bearer(await providerToken({ claims: { client_id: 'ingest-bot' } }));
    expect(outcome.ok && outcome.authentication.actorId).toBe('__oauth_auth_example_com_ingest-bot');
    expect(reasonOf(await bearer(await providerToken()))).toBe('Missing required claim: client_id');
  });

  it('finds the keys through the discovery document, reading it once', async () => {
    const { bearer } = setup({
      jwksUri: undefined,
      discoveryUri: `${provider.baseUrl}/.well-known/openid-configuration`,
    });
    const before = provider.discoveryRequests;
    expect((await bearer(await providerToken())).ok).toBe(true);
    expect((await bearer(await providerToken())).ok).toBe(true);
    expect(provider.discoveryRequests - before).toBe(1);
  });

  it('reads the discovery document again after it failed', async () => {
    const { bearer } = setup({
      jwksUri: undefined,
      discoveryUri: `${provider.baseUrl}/.well-known/openid-configuration`,
    });
    provider.discoveryDown = true;
    try {
      expect(reasonOf(await bearer(await providerToken()))).toBe('Failed to load signing keys');
    } finally {
      provider.discoveryDown = false;
    }
    expect((await bearer(await providerToken())).ok).toBe(true);
  });

  it('refuses an issuer that matches a trusted one only loosely', async () => {
    const { bearer, serviceAccounts } = setup();
    expect(reasonOf(await bearer(await providerToken({ claims: { iss: `${ISSUER}/` } })))).toBe(
      'No configured OAuth provider matches token issuer',
    );
    expect(reasonOf(await bearer(await providerToken({ claims: { iss: ISSUER.toUpperCase() } })))).toBe(
      'No configured OAuth provider matches token issuer',
    );
    expect(reasonOf(await bearer(await providerToken({ claims: { iss: undefined } })))).toBe(
      'No configured OAuth provider matches token issuer',
    );
    expect(serviceAccounts.ensured).toEqual([]);
  });

  it('refuses an untrusted issuer signing with its own key', async () => {
    const { bearer } = setup();
    const token = await providerToken({ key: otherPrivateKey, claims: { iss: 'https://evil.example.com' } });
    expect(reasonOf(await bearer(token))).toBe('No configured OAuth provider matches token issuer');
  });

  it('refuses a trusted issuer claim signed with another key', async () => {
    const { bearer } = setup();
    expect(reasonOf(await bearer(await providerToken({ key: otherPrivateKey })))).toMatch(
      /^OAuth token validation failed: signature verification failed/,
    );
  });

  it('refuses a token without an audience', async () => {
    const { bearer } = setup();
    expect(reasonOf(await bearer(await providerToken({ claims: { aud: undefined } })))).toBe(
      'Invalid or missing audience claim',
    );
  });

  it('refuses a token for another audience', async () => {
    const { bearer } = setup();
    expect(reasonOf(await bearer(await providerToken({ claims: { aud: 'someone-else' } })))).toBe(
      'Invalid or missing audience claim',
    );
  });

  it('refuses a token expired by more than the clock skew', async () => {
    const { bearer } = setup({ clockToleranceSeconds: 30 });
    expect(reasonOf(await bearer(await providerToken({ claims: { exp: nowSeconds() - 120 } })))).toBe(
      'OAuth token validation failed: the token has expired',
    );
  });

  it('accepts a token expired by less than the clock skew', async () => {
    const { bearer } = setup({ clockToleranceSeconds: 30 });
    expect((await bearer(await providerToken({ claims: { exp: nowSeconds() - 10 } }))).ok).toBe(true);
  });

  it("refuses alg 'none'", async () => {
    const { bearer } = setup();
    const unsigned = new UnsecuredJWT({ aud: AUDIENCE, sub: SUBJECT })
      .setIssuer(ISSUER)
      .setExpirationTime('5m')
      .encode();
    expect(reasonOf(await bearer(unsigned))).toBe('OAuth token validation failed: algorithm not allowed');
  });

  it('refuses HS256 keyed with the public key (algorithm confusion), as PEM and as JWK bytes', async () => {
    const { bearer, serviceAccounts } = setup();
    for (const secret of [publicPem, JSON.stringify(publicJwk)]) {
      const token = await providerToken({ alg: 'HS256', key: new TextEncoder().encode(secret) });
      expect(reasonOf(await bearer(token))).toBe('OAuth token validation failed: algorithm not allowed');
    }
    expect(serviceAccounts.ensured).toEqual([]);
  });

  it('refuses a suspended service account', async () => {
    const { bearer, actors } = setup();
    actors.set(SERVICE_ACCOUNT_URN, { suspended: true });
    expect(reasonOf(await bearer(await providerToken()))).toBe('actor is not active');
  });

  it('an external JWT without exp is refused', async () => {
    const { bearer, serviceAccounts } = setup();
    expect(reasonOf(await bearer(await providerToken({ claims: { exp: undefined } })))).toBe(
      'OAuth token validation failed: the token has no expiry (exp)',
    );
    expect(serviceAccounts.ensured).toEqual([]);
  });

  it('an external JWT whose lifetime exceeds the maximum is refused (exp ten years out)', async () => {
    const { bearer, serviceAccounts } = setup({ maxTokenLifetimeSeconds: 3_600 });
    const tenYears = 10 * 365 * 86_400;
    for (const claims of [
      { iat: nowSeconds(), exp: nowSeconds() + tenYears },
      { exp: nowSeconds() + tenYears },
      { iat: nowSeconds() - 60, exp: nowSeconds() + 3_600 },
    ]) {
      expect(reasonOf(await bearer(await providerToken({ claims })))).toBe(
        "OAuth token validation failed: the token's lifetime exceeds the maximum of 3600 seconds",
      );
    }
    expect(serviceAccounts.ensured).toEqual([]);
  });

  it('accepts a token whose lifetime is the maximum', async () => {
    const { bearer } = setup({ maxTokenLifetimeSeconds: 3_600 });
    const iat = nowSeconds() - 10;
    expect((await bearer(await providerToken({ claims: { iat, exp: iat + 3_600 } }))).ok).toBe(true);
  });

  it('an external JWT issued an hour in the future is refused', async () => {
    const { bearer, serviceAccounts } = setup();
    const iat = nowSeconds() + 3_600;
    expect(reasonOf(await bearer(await providerToken({ claims: { iat, exp: iat + 300 } })))).toBe(
      'OAuth token validation failed: the token was issued in the future (iat)',
    );
    expect(serviceAccounts.ensured).toEqual([]);
  });

  it('an external JWT not valid before an hour from now is refused', async () => {
    const { bearer } = setup();
    const nbf = nowSeconds() + 3_600;
    expect(reasonOf(await bearer(await providerToken({ claims: { nbf, exp: nbf + 300 } })))).toBe(
      'OAuth token validation failed: the token is not valid yet (nbf)',
    );
  });

  it('accepts iat and nbf ahead of the clock by less than the clock skew', async () => {
    const { bearer } = setup({ clockToleranceSeconds: 30 });
    const ahead = nowSeconds() + 10;
    expect((await bearer(await providerToken({ claims: { iat: ahead, nbf: ahead } }))).ok).toBe(true);
  });

  it('a hanging JWKS costs one request: the next within the negative-cache window fails fast', async () => {
    const { bearer, lines } = setup({
      signingKeysFetchTimeoutMs: 300,
      signingKeysRetryAfterFailureMs: 30_000,
    });
    const token = await providerToken();
    provider.jwksHangs = true;
    const before = provider.jwksRequests;
    try {
      // Requests that arrive while the fetch hangs share it: one fetch, all refused at its timeout.
      const first = await Promise.all([bearer(token), bearer(token), bearer(token)]);
      expect(first.map(reasonOf)).toEqual(Array(3).fill('Failed to load signing keys'));
      expect(provider.jwksRequests - before).toBe(1);

      const started = performance.now();
      expect(reasonOf(await bearer(token))).toBe('Failed to load signing keys');
      expect(performance.now() - started).toBeLessThan(100);
      expect(provider.jwksRequests - before).toBe(1);
      expect(lines()).toMatch(/signing keys could not be loaded/);
    } finally {
      provider.jwksHangs = false;
    }
  });

  it('fetches the keys again once the negative-cache window has passed', async () => {
    const { bearer } = setup({ signingKeysFetchTimeoutMs: 300, signingKeysRetryAfterFailureMs: 0 });
    provider.jwksHangs = true;
    try {
      expect(reasonOf(await bearer(await providerToken()))).toBe('Failed to load signing keys');
    } finally {
      provider.jwksHangs = false;
    }
    expect((await bearer(await providerToken())).ok).toBe(true);
  });

  it('reports unreachable signing keys as "Failed to load signing keys"', async () => {
    const port = await closedPort();
    const { bearer, lines } = setup({ jwksUri: `http://127.0.0.1:${port}/jwks` });
    expect(reasonOf(await bearer(await providerToken()))).toBe('Failed to load signing keys');
    expect(lines()).toMatch(/signing keys could not be loaded/);
  });

  it('reports an unreachable discovery document as "Failed to load signing keys"', async () => {
    const port = await closedPort();
    const { bearer } = setup({
      jwksUri: undefined,
      discoveryUri: `http://127.0.0.1:${port}/.well-known/openid-configuration`,
    });
    expect(reasonOf(await bearer(await providerToken()))).toBe('Failed to load signing keys');
  });

  it('reports a key set that is not JSON Web Keys as "Failed to load signing keys"', async () => {
    const { bearer } = setup({ jwksUri: `${provider.baseUrl}/.well-known/openid-configuration` });
    expect(reasonOf(await bearer(await providerToken()))).toBe('Failed to load signing keys');
  });

  it.each<[string, Partial<ExternalOAuthSettings>]>([
    ['disabled', { enabled: false }],
    ['without trusted issuers', { trustedIssuers: [] }],
    ['without allowed audiences', { allowedAudiences: [] }],
    ['without a JWKS or discovery URI', { jwksUri: undefined }],
  ])('answers "OAuth authenticator is not configured" when %s', async (_name, overrides) => {
    const { bearer } = setup(overrides);
    expect(reasonOf(await bearer(await providerToken()))).toBe('OAuth authenticator is not configured');
  });

  it('never writes a token to the log, at debug level, whatever the outcome', async () => {
    const { bearer, lines } = setup();
    const port = await closedPort();
    const unreachable = setup({ jwksUri: `http://127.0.0.1:${port}/jwks` });
    const tokens = [
      await providerToken(),
      await providerToken({ claims: { aud: 'someone-else' } }),
      await providerToken({ claims: { exp: nowSeconds() - 600 } }),
      await providerToken({ key: otherPrivateKey }),
      await providerToken({ claims: { iss: 'https://evil.example.com' } }),
      new UnsecuredJWT({ aud: AUDIENCE }).setIssuer(ISSUER).encode(),
    ];
    for (const token of tokens) await bearer(token);
    await unreachable.bearer(tokens[0] ?? '');
    const log = lines() + unreachable.lines();
    expect(log).toContain('authentication refused');
    for (const token of tokens) {
      const [, payload, signature] = token.split('.');
      expect(log).not.toContain(token);
      expect(log).not.toContain(payload);
      if (signature) expect(log).not.toContain(signature);
    }
  });
});
