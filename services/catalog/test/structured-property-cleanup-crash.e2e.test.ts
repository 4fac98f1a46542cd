import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, get, post, proposal, waitUntil } from './harness.js';

/**
 * Spec 3.2's asynchronous value removal survives a crash: the catalog is killed -9 while it removes a
 * hard-deleted property's values from thousands of entities; after a restart every value of that
 * property is gone and nothing else changed (the other property's values, on the same entities).
 */

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-sp-crash-'));
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) c.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const HOLDERS = 6_000;
const run = `c${Math.random().toString(36).slice(2, 8)}`;
const gone = `urn:li:structuredProperty:io.${run}.gone`;
const kept = `urn:li:structuredProperty:io.${run}.kept`;
const holder = (i: number) => datasetUrn(`${run}.t${i}`);
const definition = (urn: string) =>
  proposal(urn, 'propertyDefinition', {
    qualifiedName: urn.slice('urn:li:structuredProperty:'.length),
    valueType: 'urn:li:dataType:datahub.string',
    cardinality: 'MULTIPLE',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
  });

async function mustPost(base: string, path: string, body: unknown): Promise<void> {
  const res = await post(base, path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
}

/** Entities still holding the hard-deleted property, as the operations endpoint counts them (once retired). */
async function remaining(base: string): Promise<number | undefined> {
  const res = await get(
    base,
    `/openapi/operations/structuredProperties/cleanup?urn=${encodeURIComponent(gone)}`,
  );
  const found = (res.body as { properties: { urn: string; valuesRemaining: number }[] }).properties;
  return found.find((p) => p.urn === gone)?.valuesRemaining;
}

it('removes every value of a hard-deleted property after a kill -9 during the removal, and nothing else', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir };
  const first = spawnService('services/catalog/src/main.ts', env);
  children.push(first);
  await waitForHealth(base, first);

  await mustPost(base, '/aspects?action=ingestProposalBatch', {
    proposals: [definition(gone), definition(kept)],
    async: 'false',
  });
  for (let at = 0; at < HOLDERS; at += 500) {
    const proposals = Array.from({ length: Math.min(500, HOLDERS - at) }, (_, k) =>
      proposal(holder(at + k), 'structuredProperties', {
        properties: [
          { propertyUrn: gone, values: [{ string: 'g' }] },
          { propertyUrn: kept, values: [{ string: `k${at + k}` }] },
        ],
      }),
    );
    await mustPost(base, '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
  }
  await mustPost(base, '/aspects?action=ingestProposal', {
    proposal: proposal(gone, 'status', { removed: true }),
    async: 'false',
  });
  const deleted = await fetch(`${base}/openapi/v3/entity/structuredProperty/${encodeURIComponent(gone)}`, {
    method: 'DELETE',
    headers: SYSTEM_AUTH_HEADERS,
  });
  expect(deleted.status).toBe(200);

  // Killed once the removal is under way: the first holder in scan (urn) order has lost the value, the
  // last has not (or after 30 s, whatever the state).
  const ordered = Array.from({ length: HOLDERS }, (_, i) => holder(i)).sort();
  const holds = async (urn: string) => {
    const res = await get(base, `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}/structuredProperties`);
    return res.text.includes(gone);
  };
  let midway = false;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && !midway;) {
    midway = !(await holds(ordered[0]!)) && (await holds(ordered[ordered.length - 1]!));
  }
  first.process.kill('SIGKILL');
  await first.exited;
  if (!midway) console.warn('the kill did not land during the value removal: only the restart was tested');
  const second = spawnService('services/catalog/src/main.ts', env);
  children.push(second);
  await waitForHealth(base, second);
  await waitUntil(
    () => remaining(base),
    (n) => n === 0,
    120_000,
  );

  // Every holder lost exactly the hard-deleted property and kept its other value.
  for (let i = 0; i < HOLDERS; i += 97) {
    const res = await get(
      base,
      `/openapi/v3/entity/dataset/${encodeURIComponent(holder(i))}/structuredProperties`,
    );
    expect(res.status).toBe(200);
    expect((res.body as { value: unknown }).value).toEqual({
      properties: [expect.objectContaining({ propertyUrn: kept, values: [{ string: `k${i}` }] })],
    });
  }
  second.process.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
