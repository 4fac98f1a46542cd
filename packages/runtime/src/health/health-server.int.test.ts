import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEventLog } from '@catalog/events';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { startHealthServer, type HealthServer } from './health-server.js';
import { dependencyChecks, Readiness } from './readiness.js';

const logger = createLogger({ name: 'health-test', level: 'silent' });

describe('the health server of a consumer service', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(readiness: Readiness, stats?: () => unknown): Promise<string> {
    const server: HealthServer = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      readiness,
      logger,
      ...(stats ? { stats } : {}),
    });
    cleanups.push(() => server.close());
    return `http://127.0.0.1:${server.port}`;
  }

  it('is live and ready while the log answers, and answers 503 naming the log once it does not', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'health-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const log = await openEmbeddedEventLog({ directory });
    const base = await serve(new Readiness(dependencyChecks({ log }), { cacheMs: 0 }));

    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'UP', unavailable: [], checks: { log: { status: 'UP' } } });

    await log.close();
    const down = await fetch(`${base}/health/ready`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'DOWN', unavailable: ['log'] });
    // Liveness is about the process, not its dependencies.
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });

  it('serves the counters the service gives on /stats, read at each request, and no /stats without them', async () => {
    let batches = 0;
    const base = await serve(new Readiness([]), () => ({ store: { batches } }));
    batches = 3;
    const stats = await fetch(`${base}/stats`);
    expect(stats.status).toBe(200);
    expect(await stats.json()).toEqual({ store: { batches: 3 } });
    const without = await serve(new Readiness([]));
    expect((await fetch(`${without}/stats`)).status).toBe(404);
  });
});
