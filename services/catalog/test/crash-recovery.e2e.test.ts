import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { datasetUrn, ingest, proposal, readAllVersions, waitUntil } from './harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-crash-'));
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) c.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const PROPS = 'com.linkedin.dataset.DatasetProperties';

it('loses no acknowledged write and stores none twice when the process is killed -9 mid-stream', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir };
  const first = spawnService('services/catalog/src/main.ts', env);
  children.push(first);
  await waitForHealth(base, first);

  // Eight entities written synchronously and four asynchronously, in parallel; each acknowledged value is kept.
  const acked = new Map<string, string[]>();
  let stop = false;
  const writer = async (urn: string, async: boolean): Promise<void> => {
    const values: string[] = [];
    acked.set(urn, values);
    for (let n = 0; !stop; n++) {
      const value = `${urn}#${n}`;
      try {
        const res = await ingest(base, proposal(urn, 'datasetProperties', { description: value }), async);
        if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${res.text}`);
        values.push(value);
      } catch (error) {
        if (stop) return;
        if (error instanceof Error && error.message.startsWith('unexpected')) throw error;
        return; // the connection died with the process
      }
    }
  };
  const writers = [
    ...Array.from({ length: 8 }, (_, i) => writer(datasetUrn(`crash.sync_${i}`), false)),
    ...Array.from({ length: 4 }, (_, i) => writer(datasetUrn(`crash.async_${i}`), true)),
  ];
  await waitUntil(
    async () => [...acked.values()].reduce((s, v) => s + v.length, 0),
    (n) => n >= 300,
    30_000,
  );
  await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
  first.process.kill('SIGKILL');
  await first.exited;
  stop = true;
  await Promise.all(writers);

  const second = spawnService('services/catalog/src/main.ts', env);
  children.push(second);
  await waitForHealth(base, second);

  let total = 0;
  for (const [urn, values] of acked) {
    total += values.length;
    // Async writes were acknowledged once durable in the log; persistence applies them after the restart.
    const stored = await waitUntil(
      async () =>
        (await readAllVersions(base, urn, 'datasetProperties', PROPS)).map(
          (v) => (v as { description: string }).description,
        ),
      (all) => values.every((v) => all.includes(v)),
      30_000,
    );
    for (const value of values)
      expect(
        stored.filter((s) => s === value),
        `${value} stored once`,
      ).toHaveLength(1);
    expect(new Set(stored).size, `no value of ${urn} stored twice`).toBe(stored.length);
  }
  expect(total).toBeGreaterThanOrEqual(300);

  second.process.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
