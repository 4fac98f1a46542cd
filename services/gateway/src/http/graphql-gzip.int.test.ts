import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, gzipWhenAccepted } from './graphql-gzip.js';

const BODY = { data: { me: { corpUser: { username: 'datahub'.repeat(50) } } } };

/** A raw response (Node's http, which does not decompress): status, headers and body bytes. */
function post(port: number, headers: Record<string, string>, path = '/q') {
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request({ port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gzipWhenAccepted', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let port: number;
  beforeAll(async () => {
    const app = express();
    app.post('/q', gzipWhenAccepted(), (_req, res) => void res.json(BODY));
    // As the GraphQL server answers: every header, its length included, given to writeHead first.
    app.post('/head', gzipWhenAccepted(), (_req, res) => {
      const text = JSON.stringify(BODY);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      res.end(text);
    });
    // The GraphQL server's way: headers to writeHead, the body written, then end without one.
    app.post('/pieces', gzipWhenAccepted(), (_req, res) => {
      res.writeHead(200, 'OK', { 'content-type': 'application/json', 'Content-Length': '7' });
      res.write(new TextEncoder().encode('{"a":'));
      res.write('1}');
      (res.end as (...args: unknown[]) => void)(null, null, null);
    });
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('gzips the body when the client accepts gzip, with the compressed length', async () => {
    const res = await post(port, { 'Accept-Encoding': 'gzip, deflate' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers['vary']).toContain('Accept-Encoding');
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toEqual(BODY);
  });

  it('gzips a body whose headers, a length among them, were given to writeHead, also one written in pieces', async () => {
    const res = await post(port, { 'Accept-Encoding': 'gzip' }, '/head');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toEqual(BODY);
    const pieces = await post(port, { 'Accept-Encoding': 'gzip' }, '/pieces');
    expect(pieces.headers['content-encoding']).toBe('gzip');
    expect(Number(pieces.headers['content-length'])).toBe(pieces.body.length);
    expect(JSON.parse(gunzipSync(pieces.body).toString('utf8'))).toEqual({ a: 1 });
  });

  it('sends the body as it is when the client does not accept gzip', async () => {
    for (const encoding of [undefined, 'identity', 'gzip;q=0']) {
      const res = await post(port, encoding === undefined ? {} : { 'Accept-Encoding': encoding });
      expect(res.headers['content-encoding'], encoding).toBeUndefined();
      expect(JSON.parse(res.body.toString('utf8'))).toEqual(BODY);
    }
  });

  it('reads Accept-Encoding as HTTP does: any case, q-values', () => {
    expect(acceptsGzip('GZIP')).toBe(true);
    expect(acceptsGzip('br, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('deflate')).toBe(false);
  });
});
