import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { enc, get, startTestCatalog, type TestCatalog } from './harness.js';

/** A local identity provider: a JWKS and an OIDC discovery document, keys generated for this run. */
async function startIdentityProvider(): Promise<{
  url: string;
  issuer: string;
  sign: (
    claims: Record<string, unknown>,
    options?: { audience?: string; expiresIn?: string },
  ) => Promise<string>;
  close: () => Promise<void>;
}> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let url = '';
  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/.well-known/jwks.json') res.end(JSON.stringify({ keys: [jwk] }));
    else if (req.url === '/.well-known/openid-configuration')
      res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/.well-known/jwks.json` }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    issuer: url,
    sign: (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(url)
        .setAudience(options.audience ?? 'catalog-e2e')
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const identity = (base: string, token: string) =>
  fetch(`${base}/openapi/operations/identity/user/urn`, { headers: { Authorization: `Bearer ${token}` } });

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`external JWT authentication (${family.name})`, () => {
    let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
    let catalog: TestCatalog;

    beforeAll(async () => {
      idp = await startIdentityProvider();
      catalog = await startTestCatalog({
        ...family.env(),
        EXTERNAL_OAUTH_ENABLED: 'true',
        EXTERNAL_OAUTH_TRUSTED_ISSUERS: `https://other.example.com,${idp.issuer}`,
        EXTERNAL_OAUTH_ALLOWED_AUDIENCES: 'catalog-e2e,another-audience',
        EXTERNAL_OAUTH_DISCOVERY_URI: `${idp.url}/.well-known/openid-configuration`,
      });
    });
    afterAll(async () => {
      await catalog?.dispose();
      await idp?.close();
    });

    it('accepts a token of a trusted issuer and creates its service account as a real user', async () => {
      const token = await idp.sign({ sub: 'service-account-123' });
      const res = await identity(catalog.baseUrl, token);
      expect(res.status).toBe(200);
      const host = new URL(idp.url).host.replace(/[^A-Za-z0-9]/g, '_');
      const urn = `urn:li:corpuser:__oauth_${host}_service-account-123`;
      expect(await res.json()).toEqual({ urn });
      const user = await get(catalog.baseUrl, `/openapi/v3/entity/corpuser/${enc(urn)}`);
      expect(user.status, user.text).toBe(200);
      expect(user.body).toMatchObject({ corpUserInfo: { value: { active: true } } });
    });

    it('refuses a wrong audience, an expired token and a token from an untrusted issuer', async () => {
      expect(
        (await identity(catalog.baseUrl, await idp.sign({ sub: 'x' }, { audience: 'elsewhere' }))).status,
      ).toBe(401);
      expect(
        (await identity(catalog.baseUrl, await idp.sign({ sub: 'x' }, { expiresIn: '-5m' }))).status,
      ).toBe(401);
      const { privateKey } = await generateKeyPair('RS256');
      const stranger = await new SignJWT({ sub: 'x' })
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuer('https://untrusted.example.com')
        .setAudience('catalog-e2e')
        .setExpirationTime('5m')
        .sign(privateKey);
      expect((await identity(catalog.baseUrl, stranger)).status).toBe(401);
    });

    it('gives a service account only what policies grant: reading yes, writing no', async () => {
      const token = await idp.sign({ sub: 'reader-bot' });
      const write = await fetch(`${catalog.baseUrl}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          proposal: {
            entityType: 'tag',
            entityUrn: 'urn:li:tag:bot',
            changeType: 'UPSERT',
            aspectName: 'tagProperties',
            aspect: { contentType: 'application/json', value: JSON.stringify({ name: 'bot' }) },
          },
        }),
      });
      expect(write.status).toBe(403);
    });
  });
}
