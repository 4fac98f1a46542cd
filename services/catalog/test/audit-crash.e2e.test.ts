import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { startWriters } from './acknowledged-writes.js';
import { expectAuditedExactlyOnce } from './audited-writes.js';
import { waitUntil } from './harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-audit-crash-'));
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) c.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('misses no audit event and records none twice when the catalog (and its audit consumer) is killed -9 mid-stream', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Small audit batches: the kill lands between many of the audit consumer's commits.
  const env = { PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir, AUDIT_MAX_BATCH: '7' };
  const since = Date.now() - 1;
  const first = spawnService('services/catalog/src/main.ts', env);
  children.push(first);
  await waitForHealth(base, first);

  const writers = startWriters(() => base, 'auditcrash', 6, 2);
  await waitUntil(
    async () => writers.total(),
    (n) => n >= 250,
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
  const audited = await expectAuditedExactlyOnce(base, [...writers.acked.keys()], since);
  expect(audited).toBeGreaterThanOrEqual(250);

  second.process.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
