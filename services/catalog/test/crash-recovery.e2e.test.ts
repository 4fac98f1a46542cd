import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { expectExactlyOnce, startWriters } from './acknowledged-writes.js';
import { waitUntil } from './harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-crash-'));
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) c.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('loses no acknowledged write and stores none twice when the process is killed -9 mid-stream', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir };
  const first = spawnService('services/catalog/src/main.ts', env);
  children.push(first);
  await waitForHealth(base, first);

  // Eight entities written synchronously and four asynchronously, in parallel; each acknowledged value is kept.
  const writers = startWriters(() => base, 'crash', 8, 4);
  await waitUntil(
    async () => writers.total(),
    (n) => n >= 300,
    30_000,
  );
  await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
  first.process.kill('SIGKILL');
  await first.exited;
  await writers.stop();
  expect(writers.errors).toEqual([]);

  const second = spawnService('services/catalog/src/main.ts', env);
  children.push(second);
  await waitForHealth(base, second);

  // Async writes were acknowledged once durable in the log; persistence applies them after the restart.
  expect(await expectExactlyOnce(base, writers.acked, 30_000)).toBeGreaterThanOrEqual(300);

  second.process.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
