import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, startTestCatalog, type TestCatalog } from './harness.js';

/** A build as vite leaves it: index.html, a hashed script with its precompressed copies, a favicon. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app page</title><div id="root"></div>');
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), script);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.br'), brotliCompressSync(script));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync(script));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const raw = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers, redirect: 'manual' });

describe('the web app served by the gateway', () => {
  let catalog: TestCatalog;
  let dist: string;

  beforeAll(async () => {
    dist = fakeBuild();
    catalog = await startTestCatalog({ WEB_APP_DIR: dist });
  });
  afterAll(async () => {
    await catalog?.dispose();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers the app page without credentials on its routes, never cached without asking', async () => {
    for (const path of [
      '/',
      '/login',
      '/search?q=orders',
      `/dataset/${encodeURIComponent('urn:li:dataset:(a,b,PROD)')}`,
    ]) {
      const res = await raw(catalog.baseUrl, path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(await res.text(), path).toContain('app page');
    }
  });

  it('serves hashed assets for a year, immutable, brotli or gzip as the browser accepts', async () => {
    const br = await raw(catalog.baseUrl, '/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    const brBody = Buffer.from(await br.arrayBuffer());
    // fetch decodes what it can; read the bytes as sent when it did not.
    const text = brBody.toString('utf8').startsWith('console')
      ? brBody.toString('utf8')
      : brotliDecompressSync(brBody).toString('utf8');
    expect(text).toMatch(/^console\.log/);

    const gz = await raw(catalog.baseUrl, '/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const gzBody = Buffer.from(await gz.arrayBuffer());
    expect(
      gzBody.toString('utf8').startsWith('console') ? gzBody.toString('utf8') : gunzipSync(gzBody).toString(),
    ).toMatch(/^console\.log/);

    const plain = await raw(catalog.baseUrl, '/assets/index-AbC123.js', { 'Accept-Encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toMatch(/^console\.log/);

    const missing = await raw(catalog.baseUrl, '/assets/nothing-here.js');
    expect(missing.status).toBe(404);
    const favicon = await raw(catalog.baseUrl, '/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('no-cache');
  });

  it('leaves every API route answering as before: no page for them, credentials still asked', async () => {
    // Without credentials: the API's own 401, not the app page.
    for (const path of [
      '/entities?action=search',
      '/entitiesV2/x',
      '/aspects/x',
      '/api/graphql',
      '/openapi/v3/entity/dataset',
      '/relationships',
      '/dataset',
    ]) {
      const res = await raw(catalog.baseUrl, path);
      expect(res.status, path).toBe(401);
      expect(await res.text(), path).not.toContain('app page');
    }
    expect((await raw(catalog.baseUrl, '/health')).status).toBe(200);
    const config = await raw(catalog.baseUrl, '/config');
    expect(config.headers.get('content-type')).toMatch(/json/);
    // With credentials: a path no route has is the API's 404, not the app page.
    const authorization = `Bearer ${await logIn(catalog.baseUrl)}`;
    const unknown = await raw(catalog.baseUrl, '/entitiesV3', { Authorization: authorization });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('app page');
    // The login route still answers POST /logIn; GET /logOut still redirects to the sign-in page.
    const logOut = await raw(catalog.baseUrl, '/logOut', { Authorization: authorization });
    expect(logOut.status).toBe(302);
    expect(logOut.headers.get('location')).toBe('/login');
  });
});

describe('the gateway without a build of the web app', () => {
  let catalog: TestCatalog;
  let empty: string;

  beforeAll(async () => {
    empty = mkdtempSync(join(tmpdir(), 'web-none-'));
    catalog = await startTestCatalog({ WEB_APP_DIR: empty });
  });
  afterAll(async () => {
    await catalog?.dispose();
    rmSync(empty, { recursive: true, force: true });
  });

  it('answers the app routes with a 404 page saying how to build it, and keeps /login saying how to log in', async () => {
    const home = await raw(catalog.baseUrl, '/');
    expect(home.status).toBe(404);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await home.text()).toContain('pnpm build');
    const asset = await raw(catalog.baseUrl, '/assets/index-AbC123.js');
    expect(asset.status).toBe(404);
    const login = await raw(catalog.baseUrl, '/login');
    expect(login.status).toBe(200);
    expect(((await login.json()) as { message: string }).message).toContain('POST /logIn');
  });
});
