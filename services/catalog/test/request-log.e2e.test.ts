import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturingLogger } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogConfig, startCatalog, type RunningCatalog } from '../src/index.js';
import { SYSTEM_CLIENT_AUTHORIZATION, datasetUrn, proposal, waitUntil } from './harness.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

describe('request ids: one log line per request, returned in X-Request-Id, carried into the pipeline', () => {
  const { logger, lines } = capturingLogger('debug', 'request-log-e2e');
  let catalog: RunningCatalog;
  let base: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'catalog-request-log-'));
    // Consumers on this thread, so their lines go to the same (captured) logger.
    const config = readCatalogConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      CATALOG_CONSUMER_THREADS: 'false',
    });
    catalog = await startCatalog(config, logger);
    base = `http://127.0.0.1:${catalog.port}`;
  });
  afterAll(async () => {
    await catalog?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const write = (name: string, headers: Record<string, string>) =>
    fetch(`${base}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-RestLi-Protocol-Version': '2.0.0',
        Authorization: SYSTEM_CLIENT_AUTHORIZATION,
        Cookie: 'PLAY_SESSION=not-for-logs',
        ...headers,
      },
      body: JSON.stringify({
        proposal: proposal(datasetUrn(`request_log.${name}`), 'datasetProperties', { description: name }),
        async: 'false',
      }),
    });
  const linesWith = (msg: string, httpRequestId: string) =>
    lines().filter((l) => l['msg'] === msg && l['httpRequestId'] === httpRequestId);

  it('takes X-Request-Id, returns it, and logs it on the request, persistence and indexer lines', async () => {
    const res = await write('given', { 'X-Request-Id': 'abc' });
    expect(res.status, await res.text()).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('abc');
    const [line] = await waitUntil(
      async () => linesWith('request completed', 'abc'),
      (found) => found.length === 1,
    );
    expect(line).toMatchObject({ method: 'POST', path: '/aspects', status: 200, level: 30 });
    expect(typeof line!['durationMs']).toBe('number');
    const applied = linesWith('proposal applied', 'abc');
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({
      urn: datasetUrn('request_log.given'),
      aspectName: 'datasetProperties',
    });
    await waitUntil(
      async () => linesWith('change log indexed', 'abc'),
      (found) => found.some((l) => l['urn'] === datasetUrn('request_log.given')),
    );
    // Neither the credentials nor the cookie reach any line.
    const all = JSON.stringify(lines());
    expect(all).not.toContain('JohnSnowKnowsNothing');
    expect(all).not.toContain('not-for-logs');
  });

  it('prefers the trace id of a traceparent over X-Request-Id', async () => {
    const res = await write('traced', { traceparent: TRACEPARENT, 'X-Request-Id': 'ignored' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(TRACE);
    await waitUntil(
      async () => linesWith('request completed', TRACE),
      (found) => found.length === 1 && found[0]!['path'] === '/aspects',
    );
    expect(linesWith('proposal applied', TRACE)).toHaveLength(1);
    expect(lines().some((l) => l['httpRequestId'] === 'ignored')).toBe(false);
  });

  it('makes up an id when the request brings none (or an unusable one), and logs a refusal too', async () => {
    const res = await fetch(`${base}/no/such/thing?token=secret-in-query`, {
      headers: { 'X-Request-Id': 'has spaces in it' },
    });
    // Without credentials: refused before any route, and still logged.
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[\da-f]{32}$/);
    const [line] = await waitUntil(
      async () => linesWith('request completed', id),
      (found) => found.length === 1,
    );
    expect(line).toMatchObject({ method: 'GET', path: '/no/such/thing', status: 401 });
    expect(JSON.stringify(lines())).not.toContain('secret-in-query');
  });

  it('answers readiness with every dependency up, and liveness', async () => {
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'UP',
      unavailable: [],
      checks: { store: { status: 'UP' }, search: { status: 'UP' }, log: { status: 'UP' } },
    });
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
