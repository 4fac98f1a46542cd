import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturingLogger, waitFor } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogConfig, startCatalog, type RunningCatalog } from '../src/index.js';
import { SYSTEM_CLIENT_AUTHORIZATION } from './harness.js';

const REQUEST_TIMEOUT_MS = 1500;

describe('clients that go away or send slowly', () => {
  const { logger, lines } = capturingLogger('debug', 'slow-and-aborted-e2e');
  let catalog: RunningCatalog;
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'catalog-slow-clients-'));
    const config = readCatalogConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      CATALOG_CONSUMER_THREADS: 'false',
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    catalog = await startCatalog(config, logger);
    port = catalog.port;
  });
  afterAll(async () => {
    await catalog?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Headers announcing a body of `length` bytes, written on a raw socket. */
  function openUpload(path: string, length: number, requestId: string): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `X-RestLi-Protocol-Version: 2.0.0\r\nAuthorization: ${SYSTEM_CLIENT_AUTHORIZATION}\r\n` +
            `X-Request-Id: ${requestId}\r\nContent-Length: ${length}\r\n\r\n`,
        );
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  const linesOf = (requestId: string) => lines().filter((l) => l['httpRequestId'] === requestId);

  it.each([
    ['Rest.li', '/aspects?action=ingestProposal'],
    ['GraphQL', '/api/graphql'],
    ['OpenAPI', '/openapi/v3/entity/dataset'],
  ])(
    'a client that closes the connection in the middle of a large %s upload is an info line, not an error',
    async (_name, path) => {
      const requestId = `aborted-upload-${_name}`;
      const socket = await openUpload(path, 4 * 1024 * 1024, requestId);
      socket.write('{"proposal": "' + 'x'.repeat(256 * 1024));
      socket.destroy();
      await waitFor(() => linesOf(requestId).length > 0, 10_000, 'the request line');
      // Let any error handler that would log have run.
      await new Promise((r) => setImmediate(r));
      const line = linesOf(requestId)[0]!;
      expect(line).toMatchObject({ level: 30, path: path.split('?')[0], aborted: true });
      expect(line['msg']).toMatch(/aborted/);
      expect(lines().filter((l) => (l['level'] as number) >= 50)).toEqual([]);
    },
  );

  it('a slowloris body (headers, then a byte now and then) is answered 408 once the request timeout passes', async () => {
    const requestId = 'slowloris';
    const socket = await openUpload('/aspects?action=ingestProposal', 1000, requestId);
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const started = Date.now();
    const dribble = setInterval(() => {
      if (!socket.destroyed) socket.write('x');
    }, 200);
    try {
      await Promise.race([
        closed,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the connection was still open after 10 s')), 10_000),
        ),
      ]);
    } finally {
      clearInterval(dribble);
      socket.destroy();
    }
    const elapsed = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    await waitFor(() => linesOf(requestId).length > 0, 5_000, 'the request line');
    expect(linesOf(requestId)[0]).toMatchObject({ level: 30, aborted: true });
    expect(lines().filter((l) => (l['level'] as number) >= 50)).toEqual([]);
  });
});
