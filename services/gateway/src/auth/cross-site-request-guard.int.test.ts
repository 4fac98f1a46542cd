import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { crossSiteRequestGuard } from './cross-site-request-guard.js';
import { setRequestContext } from './request-context.js';

let close: (() => void) | undefined;
afterEach(() => close?.());

const ALLOWED = 'https://ui.example.test';

/** An app whose requests count as cookie-authenticated when they send `X-Test-Cookie: 1`. */
async function serve(): Promise<string> {
  const app = express();
  app.use((req, res, next) => {
    setRequestContext(res, {
      authentication: {
        actorUrn: 'urn:li:corpuser:alice',
        actorId: 'alice',
        method: 'session-token',
        isSystem: false,
      },
      origin: { sourceIp: '127.0.0.1', userAgent: '', eventSource: 'RESTLI', traceId: '0'.repeat(32) },
      ...(req.get('x-test-cookie') === '1' ? { viaSessionCookie: true } : {}),
    });
    next();
  });
  app.use(crossSiteRequestGuard([ALLOWED]));
  app.use((_req, res) => void res.json({ passed: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function statusOf(base: string, method: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(`${base}/x`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: (await res.json()) as { message?: string } };
}

describe('crossSiteRequestGuard', () => {
  it('refuses a cookie write from a foreign, null or garbage Origin and accepts its own host and the allowed ones', async () => {
    const base = await serve();
    const json = { 'X-Test-Cookie': '1', 'Content-Type': 'application/json' };
    for (const origin of ['http://localhost:3000', 'null', 'not a url', 'http://127.0.0.2']) {
      const res = await statusOf(base, 'POST', { ...json, Origin: origin }, '{}');
      expect(res.status, origin).toBe(403);
      expect(res.body.message).toContain(`from origin ${origin} is refused`);
    }
    // The scheme is not compared: a TLS proxy in front makes the page https and the request http.
    for (const origin of [base, base.replace('http:', 'https:'), ALLOWED]) {
      expect((await statusOf(base, 'POST', { ...json, Origin: origin }, '{}')).status, origin).toBe(200);
    }
  });

  it('refuses a cookie write marked cross-site by Sec-Fetch-Site when there is no Origin', async () => {
    const base = await serve();
    const headers = { 'X-Test-Cookie': '1', 'Content-Type': 'application/json' };
    expect((await statusOf(base, 'POST', { ...headers, 'Sec-Fetch-Site': 'cross-site' }, '{}')).status).toBe(
      403,
    );
    expect((await statusOf(base, 'POST', { ...headers, 'Sec-Fetch-Site': 'same-origin' }, '{}')).status).toBe(
      200,
    );
  });

  it('refuses simple content types and a POST without one, but not a bodyless DELETE (always preflighted)', async () => {
    const base = await serve();
    for (const type of [
      'text/plain',
      'TEXT/PLAIN; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await statusOf(base, 'PUT', { 'X-Test-Cookie': '1', 'Content-Type': type }, '{}');
      expect(res.status, type).toBe(403);
      expect(res.body.message).toContain('must be sent as JSON (Content-Type: application/json)');
    }
    expect((await statusOf(base, 'POST', { 'X-Test-Cookie': '1' })).status).toBe(403);
    expect((await statusOf(base, 'DELETE', { 'X-Test-Cookie': '1' })).status).toBe(200);
    expect(
      (
        await statusOf(
          base,
          'PATCH',
          { 'X-Test-Cookie': '1', 'Content-Type': 'application/json-patch+json' },
          '[]',
        )
      ).status,
    ).toBe(200);
  });

  it('leaves reads and header-authenticated requests alone', async () => {
    const base = await serve();
    expect(
      (await statusOf(base, 'GET', { 'X-Test-Cookie': '1', Origin: 'http://localhost:3000' })).status,
    ).toBe(200);
    expect(
      (await statusOf(base, 'POST', { 'Content-Type': 'text/plain', Origin: 'http://localhost:3000' }, '{}'))
        .status,
    ).toBe(200);
  });
});
