import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { proposalLag } from './audited-writes.js';
import { datasetUrn, enc, get, post, proposal, waitUntil } from './harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-rollback-crash-'));
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) c.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const ENTITIES = 1000;
const RUN_A = 'crash-run-a';
const RUN_B = 'crash-run-b';

async function writeRun(
  base: string,
  runId: string,
  urns: readonly string[],
  description: string,
): Promise<void> {
  for (let at = 0; at < urns.length; at += 100) {
    const proposals = urns.slice(at, at + 100).map((urn) => ({
      ...proposal(urn, 'datasetProperties', { description, customProperties: {} }),
      systemMetadata: { runId, lastObserved: Date.now() },
    }));
    const res = await post(base, '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
    expect(res.status, res.text).toBe(200);
  }
}

async function descriptionOf(base: string, urn: string): Promise<string | undefined> {
  const res = await get(base, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  const aspect = (res.body as { aspect: Record<string, { description?: string }> }).aspect;
  return Object.values(aspect)[0]?.description;
}

it('finishes a rollback interrupted by kill -9 when it is run again, restoring every aspect once', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir };
  const first = spawnService('services/catalog/src/main.ts', env);
  children.push(first);
  await waitForHealth(base, first);

  const urns = Array.from({ length: ENTITIES }, (_, i) => datasetUrn(`rollbackcrash.t${i}`));
  await writeRun(base, RUN_A, urns, 'from run a');
  await writeRun(base, RUN_B, urns, 'from run b');

  // The rollback is killed part way: some aspects are back at run A's value, the rest still at B's.
  const interrupted = post(base, '/runs?action=rollback', { runId: RUN_B, dryRun: false, safe: true }).catch(
    () => undefined,
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const restored = await descriptionOf(base, urns[0]!);
    if (restored === 'from run a' || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  first.process.kill('SIGKILL');
  await first.exited;
  expect((await interrupted)?.status).not.toBe(200);

  const second = spawnService('services/catalog/src/main.ts', env);
  children.push(second);
  await waitForHealth(base, second);
  // What the interrupted rollback logged is applied after the restart; then see what it left.
  await waitUntil(
    () => proposalLag(base),
    (lag) => lag === 0,
    60_000,
  );
  const before = await Promise.all(urns.map((u) => descriptionOf(base, u)));
  const rerun = await post(base, '/runs?action=rollback', { runId: RUN_B, dryRun: false, safe: true });
  expect(rerun.status, rerun.text).toBe(200);

  const after = await Promise.all(urns.map((u) => descriptionOf(base, u)));
  expect(after.filter((d) => d !== 'from run a')).toEqual([]);
  // The second call did what the first left: not nothing (it was interrupted) and not everything again.
  const left = before.filter((d) => d === 'from run b').length;
  expect(left).toBeGreaterThan(0);
  expect((rerun.body as { value: { aspectsReverted: number } }).value.aspectsReverted).toBe(left);
  const described = await post(base, '/runs?action=describe', { runId: RUN_B, start: 0, count: 10 });
  expect((described.body as { value: unknown[] }).value).toEqual([]);

  // One version per change: run A's value, run B's, and run A's restored once.
  const versions = await get(base, `/aspects/${enc(urns[ENTITIES - 1]!)}?aspect=datasetProperties&version=3`);
  expect(versions.status).toBe(404);

  second.process.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
