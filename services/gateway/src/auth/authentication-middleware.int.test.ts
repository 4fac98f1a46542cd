import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthenticationChain, AuthenticationInput } from '@catalog/auth';
import type { GatewayAuth } from './gateway-auth.js';
import { authenticationMiddleware, cookieValue, isPublicPath } from './authentication-middleware.js';
import { requestContextOf } from './request-context.js';
import { restliErrorHandler } from '../restli/restli-errors.js';

const logger = pino({ level: 'silent' });
let close: (() => void) | undefined;
afterEach(() => close?.());

/** An app behind the middleware whose chain accepts `Bearer good` and fails with `Bearer down`. */
async function serve(seen: AuthenticationInput[] = [], trustProxy: string | false = false): Promise<string> {
  const chain = {
    authenticate: async (input: AuthenticationInput) => {
      seen.push(input);
      const credential = input.authorization ?? (input.sessionToken ? `Bearer ${input.sessionToken}` : '');
      if (credential === 'Bearer down') throw new Error('store connection refused');
      return credential === 'Bearer good'
        ? {
            ok: true as const,
            authentication: {
              actorUrn: 'urn:li:corpuser:alice',
              actorId: 'alice',
              method: 'session-token' as const,
              isSystem: false,
            },
          }
        : { ok: false as const, reason: 'no credentials' };
    },
  } as unknown as AuthenticationChain;
  const app = express();
  app.set('trust proxy', trustProxy);
  app.use(authenticationMiddleware({ chain } as GatewayAuth, logger));
  app.use((_req, res) => {
    const { authentication, origin } = requestContextOf(res);
    res.json({ actor: authentication.actorUrn, origin });
  });
  app.use(restliErrorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the authentication middleware', () => {
  it('answers 401 with the ecosystem text on a protected path without valid credentials', async () => {
    const base = await serve();
    for (const headers of [{}, { Authorization: 'Bearer bad' }] as Record<string, string>[]) {
      const res = await fetch(`${base}/entitiesV2/x`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        status: 401,
        message: 'Unauthorized to perform this action.',
      });
    }
  });

  it('lets the excluded paths through anonymously, and authenticates them when credentials come along', async () => {
    const base = await serve();
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ actor: 'urn:li:corpuser:UNKNOWN' });
    expect(await (await fetch(`${base}/schema-registry/api/subjects`)).json()).toMatchObject({
      actor: 'urn:li:corpuser:UNKNOWN',
    });
    const withToken = await fetch(`${base}/config`, { headers: { Authorization: 'Bearer good' } });
    expect(await withToken.json()).toMatchObject({ actor: 'urn:li:corpuser:alice' });
  });

  it('reads the session token from the login cookie', async () => {
    const seen: AuthenticationInput[] = [];
    const base = await serve(seen);
    const res = await fetch(`${base}/api/graphql`, { headers: { Cookie: 'actor=x; PLAY_SESSION=good' } });
    expect(await res.json()).toMatchObject({ actor: 'urn:li:corpuser:alice' });
    expect(seen[0]).toEqual({ sessionToken: 'good' });
  });

  it('answers 503 naming the store when authentication cannot be decided, not 401 or 500', async () => {
    const base = await serve();
    const res = await fetch(`${base}/entitiesV2/x`, { headers: { Authorization: 'Bearer down' } });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('the aspect store is unavailable');
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const headers = { Authorization: 'Bearer good', 'X-Forwarded-For': '203.0.113.7' };
    const direct = await serve();
    expect((await (await fetch(`${direct}/x`, { headers })).json()).origin.sourceIp).toMatch(/127\.0\.0\.1$/);
    close?.();
    const proxied = await serve([], 'loopback');
    expect((await (await fetch(`${proxied}/x`, { headers })).json()).origin.sourceIp).toBe('203.0.113.7');
  });

  it('records the origin: forwarded address, user agent, API and the traceparent trace id', async () => {
    const base = await serve([], 'loopback');
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${base}/openapi/v3/entity/dataset`, {
      headers: {
        Authorization: 'Bearer good',
        'X-Forwarded-For': '203.0.113.7',
        'User-Agent': 'acryl-datahub/1.7',
        traceparent: `00-${trace}-00f067aa0ba902b7-01`,
      },
    });
    expect((await res.json()).origin).toEqual({
      sourceIp: '203.0.113.7',
      userAgent: 'acryl-datahub/1.7',
      eventSource: 'OPENAPI',
      traceId: trace,
    });
    const graphql = await fetch(`${base}/api/graphql`, { headers: { Authorization: 'Bearer good' } });
    const origin = (await graphql.json()).origin as { eventSource: string; traceId: string };
    expect(origin.eventSource).toBe('GRAPHQL');
    expect(origin.traceId).toMatch(/^[\da-f]{32}$/);
  });

  it('knows its public paths and parses cookies', () => {
    expect(isPublicPath('/openapi/swagger-ui/index.html')).toBe(true);
    expect(isPublicPath('/openapi/v3/entity/dataset')).toBe(false);
    expect(isPublicPath('/healthz')).toBe(false);
    expect(cookieValue('a=1; PLAY_SESSION=tok.en.x; b=2', 'PLAY_SESSION')).toBe('tok.en.x');
    expect(cookieValue('PLAY_SESSION=', 'PLAY_SESSION')).toBeUndefined();
    expect(cookieValue(undefined, 'PLAY_SESSION')).toBeUndefined();
  });
});
