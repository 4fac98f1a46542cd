import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import { callAs, datasetUrn, logIn, proposal, startTestCatalog, type TestCatalog } from './harness.js';

/** The one origin this catalog lets pages call it from. */
const ALLOWED_ORIGIN = 'http://ui.example.test';
/** The attacker's page. */
const FOREIGN_ORIGIN = 'http://localhost:3000';

const bearer = (token: string) => `Bearer ${token}`;
const cookie = (token: string) => `PLAY_SESSION=${token}`;

const MINT_NO_EXPIRY = (name: string) =>
  `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: NO_EXPIRY, name: "${name}"}) { accessToken } }`;

/** A raw request as a browser (or an attacker's page) would send it. */
async function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Headers; text: string; body: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`browser-facing safety (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    const run = Date.now();

    /** How many tokens named `name` are stored. */
    async function tokensNamed(name: string): Promise<number> {
      const listed = await graphql(
        base,
        'query { listAccessTokens(input: {start: 0, count: 1000}) { tokens { name } } }',
        {},
        { headers: { Authorization: admin } },
      );
      const tokens = (listed.data?.['listAccessTokens'] as { tokens: { name: string }[] }).tokens;
      return tokens.filter((t) => t.name === name).length;
    }

    /** A new native user, signed up through an invite token; returns its urn. */
    async function signUp(email: string, password: string): Promise<string> {
      const invite = await graphql(
        base,
        'mutation { createInviteToken(input: {}) { inviteToken } }',
        {},
        {
          headers: { Authorization: admin },
        },
      );
      const inviteToken = (invite.data?.['createInviteToken'] as { inviteToken: string }).inviteToken;
      const res = await callAs(base, 'POST', '/signUp', undefined, {
        fullName: 'Browser User',
        email,
        password,
        inviteToken,
        title: 'Engineer',
      });
      expect(res.status, res.text).toBe(200);
      return `urn:li:corpuser:${email}`;
    }

    beforeAll(async () => {
      catalog = await startTestCatalog({ ...family.env(), CORS_ALLOWED_ORIGINS: ALLOWED_ORIGIN });
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('a cross-origin cookie POST of createAccessToken is refused and no CORS header echoes the origin', async () => {
      const session = await logIn(base);
      const name = `csrf-${run}`;
      for (const contentType of ['text/plain', 'application/json']) {
        const res = await send(
          base,
          'POST',
          '/api/graphql',
          { Cookie: cookie(session), Origin: FOREIGN_ORIGIN, 'Content-Type': contentType },
          JSON.stringify({ query: MINT_NO_EXPIRY(name) }),
        );
        expect(res.status, res.text).toBe(403);
        expect((res.body as { message: string }).message).toContain(
          'session cookie from origin http://localhost:3000 is refused',
        );
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      }
      // Its preflight is not granted either.
      const preflight = await send(base, 'OPTIONS', '/api/graphql', {
        Origin: FOREIGN_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(await tokensNamed(name)).toBe(0);
    });

    it('a same-origin cookie POST of a simple content type (text/plain, form, multipart) is refused with 403 naming why', async () => {
      const session = await logIn(base);
      const name = `simple-${run}`;
      const graphqlRes = await send(
        base,
        'POST',
        '/api/graphql',
        { Cookie: cookie(session), 'Content-Type': 'text/plain;charset=UTF-8' },
        JSON.stringify({ query: MINT_NO_EXPIRY(name) }),
      );
      expect(graphqlRes.status).toBe(403);
      expect(graphqlRes.text).toContain('must be sent as JSON (Content-Type: application/json)');
      const write = JSON.stringify({
        proposal: proposal(datasetUrn(`csrf_${run}`), 'status', { removed: false }),
      });
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
        const restli = await send(
          base,
          'POST',
          '/aspects?action=ingestProposal',
          { Cookie: cookie(session), 'Content-Type': contentType },
          write,
        );
        expect(restli.status, contentType).toBe(403);
        expect(restli.text).toContain('must be sent as JSON');
      }
      const openapi = await send(
        base,
        'POST',
        `/openapi/v3/entity/dataset`,
        { Cookie: cookie(session), 'Content-Type': 'text/plain' },
        '[]',
      );
      expect(openapi.status).toBe(403);
      expect(await tokensNamed(name)).toBe(0);
    });

    it('a same-origin cookie POST as JSON works, as GraphiQL sends it; Bearer clients are not held to the origin', async () => {
      const session = await logIn(base);
      const query = JSON.stringify({ query: '{ me { corpUser { urn } } }' });
      const viaCookie = await send(
        base,
        'POST',
        '/api/graphql',
        { Cookie: cookie(session), 'Content-Type': 'application/json', Origin: base },
        query,
      );
      expect(viaCookie.status, viaCookie.text).toBe(200);
      expect(viaCookie.text).toContain('urn:li:corpuser:datahub');
      // SDK-style: the Authorization header is the credential, whatever the origin (no CORS answer for it).
      const viaBearer = await send(
        base,
        'POST',
        '/api/graphql',
        { Authorization: bearer(session), 'Content-Type': 'application/json', Origin: FOREIGN_ORIGIN },
        query,
      );
      expect(viaBearer.status, viaBearer.text).toBe(200);
      expect(viaBearer.headers.get('access-control-allow-origin')).toBeNull();
      // A body that is not JSON is refused whatever the credential (415), before anything runs.
      const notJson = await send(
        base,
        'POST',
        '/api/graphql',
        { Authorization: bearer(session), 'Content-Type': 'text/plain', Origin: FOREIGN_ORIGIN },
        query,
      );
      expect(notJson.status, notJson.text).toBe(415);
    });

    it('answers the preflight of an allowed origin and lets it call with the cookie', async () => {
      const preflight = await send(base, 'OPTIONS', '/api/graphql', {
        Origin: ALLOWED_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(preflight.headers.get('vary')).toContain('Origin');
      const session = await logIn(base);
      const res = await send(
        base,
        'POST',
        '/api/graphql',
        { Cookie: cookie(session), 'Content-Type': 'application/json', Origin: ALLOWED_ORIGIN },
        JSON.stringify({ query: '{ me { corpUser { urn } } }' }),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    });

    it('a session token is refused after /logOut, from the cookie and as Bearer, and the logout lands on a page that exists', async () => {
      const session = await logIn(base);
      const other = await logIn(base);
      const whoAmI = (headers: Record<string, string>) =>
        send(base, 'GET', '/openapi/operations/identity/user/urn', headers);
      expect((await whoAmI({ Cookie: cookie(session) })).status).toBe(200);
      const logout = await send(base, 'GET', '/logOut', { Cookie: cookie(session) });
      expect(logout.status).toBe(302);
      const location = logout.headers.get('location');
      expect(location).toBe('/login');
      const cleared = logout.headers.getSetCookie().join('\n');
      expect(cleared).toMatch(/PLAY_SESSION=;.*HttpOnly/);
      const landing = await send(base, 'GET', location!, {});
      expect(landing.status).toBe(200);
      // The web app's sign-in page once it is built (pnpm build), else the catalog's note on how to log
      // in (web-app-serving.e2e.test.ts pins each case).
      expect(landing.text).toMatch(/POST \/logIn|<div id="root">/);
      const presented: Record<string, string>[] = [
        { Cookie: cookie(session) },
        { Authorization: bearer(session) },
      ];
      for (const headers of presented) {
        const res = await whoAmI(headers);
        expect(res.status, JSON.stringify(headers).slice(0, 20)).toBe(401);
      }
      // Only that session ends: another login of the same user still works.
      expect((await whoAmI({ Authorization: bearer(other) })).status).toBe(200);
    });

    it('sets the session cookie HttpOnly and SameSite=Strict, and Secure only over TLS a trusted proxy reports', async () => {
      const res = await send(
        base,
        'POST',
        '/logIn',
        // Believed only from TRUSTED_PROXIES (none here): plain HTTP, so no Secure flag.
        { 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https' },
        JSON.stringify({ username: 'datahub', password: 'datahub' }),
      );
      const session = res.headers.getSetCookie().find((c) => c.startsWith('PLAY_SESSION='));
      expect(session).toMatch(/HttpOnly/);
      expect(session).toMatch(/SameSite=Strict/);
      expect(session).not.toMatch(/Secure/);
    });

    it('repeated failed logins get 429 with Retry-After, then the right password works after the wait', async () => {
      const email = `throttled_${run}@example.com`;
      await signUp(email, 'right password 1');
      const attempt = (password: string) =>
        send(
          base,
          'POST',
          '/logIn',
          { 'Content-Type': 'application/json' },
          JSON.stringify({ username: email, password }),
        );
      // Five failures are free; the sixth blocks the user for a second.
      for (let i = 0; i < 6; i++) expect((await attempt('wrong')).status).toBe(400);
      const blocked = await attempt('right password 1');
      expect(blocked.status).toBe(429);
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBe(1);
      expect(blocked.body).toEqual({ message: 'Too many failed logins: try again in 1 second.' });
      // Retry-After is the protocol's wait: honoured as told.
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 50));
      const ok = await attempt('right password 1');
      expect(ok.status, ok.text).toBe(200);
      // The success reset the user's counter: five failures are free again.
      for (let i = 0; i < 5; i++) expect((await attempt('wrong')).status).toBe(400);
      expect((await attempt('right password 1')).status).toBe(200);
    });

    it('password guessing through /auth/verifyNativeUserCredentials by a non-system caller gets 429 too', async () => {
      const victim = await signUp(`victim_${run}@example.com`, 'victim password 1');
      const guesser = bearer(
        await logIn(base, (await signUp(`guesser_${run}@example.com`, 'guesser 1')).slice(16), 'guesser 1'),
      );
      const verify = (password: string) =>
        callAs(base, 'POST', '/auth/verifyNativeUserCredentials', guesser, { userUrn: victim, password });
      for (let i = 0; i < 6; i++)
        expect((await verify(`guess ${i}`)).body).toMatchObject({ doesPasswordMatch: false });
      const blocked = await verify('victim password 1');
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({ message: expect.stringContaining('Too many failed logins') });
    });
  });
}
