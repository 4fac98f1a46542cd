import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { datasetUrn, get, post, proposal, waitUntil } from './harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-delete-crash-'));
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) c.process.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const ENTITIES = 400;
const TAG = 'urn:li:tag:crashdelete';

/** The entities the search index holds with the tag. */
async function searched(base: string): Promise<Set<string>> {
  const res = await post(base, '/entities?action=search', {
    entity: 'dataset',
    input: '*',
    start: 0,
    count: 1000,
    filter: { or: [{ and: [{ field: 'tags', condition: 'EQUAL', values: [TAG] }] }] },
  });
  if (res.status !== 200) throw new Error(`search: ${res.status} ${res.text}`);
  return new Set((res.body as { value: { entities: string[] } }).value.entities);
}

/** Whether the store holds the entity's key aspect. */
async function stored(base: string, urn: string): Promise<boolean> {
  const res = await post(base, '/entities?action=exists', { urn });
  if (res.status !== 200) throw new Error(`exists: ${res.status} ${res.text}`);
  return (res.body as { value: boolean }).value;
}

/** Entities the tag's incoming graph edges still name. */
async function tagged(base: string): Promise<Set<string>> {
  const res = await get(
    base,
    `/relationships?urn=${encodeURIComponent(TAG)}&types=List(TaggedWith)&direction=INCOMING&count=1000`,
  );
  if (res.status !== 200) throw new Error(`relationships: ${res.status} ${res.text}`);
  return new Set((res.body as { entities: string[] }).entities);
}

it('leaves store, search and graph agreeing when the catalog is killed -9 in the middle of hard deletes', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir };
  const first = spawnService('services/catalog/src/main.ts', env);
  children.push(first);
  await waitForHealth(base, first);

  const urns = Array.from({ length: ENTITIES }, (_, i) => datasetUrn(`crashdelete.t${i}`));
  for (let at = 0; at < urns.length; at += 100) {
    const proposals = urns
      .slice(at, at + 100)
      .flatMap((urn) => [
        proposal(urn, 'datasetProperties', { name: urn, customProperties: {} }),
        proposal(urn, 'globalTags', { tags: [{ tag: TAG }] }),
      ]);
    const res = await post(base, '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
    expect(res.status, res.text).toBe(200);
  }
  await waitUntil(
    () => searched(base),
    (found) => found.size === ENTITIES,
    60_000,
  );

  // Hard deletes from four clients; the process is killed once about a quarter are acknowledged.
  const acknowledged = new Set<string>();
  let next = 0;
  const deleter = async (): Promise<void> => {
    while (next < urns.length) {
      const urn = urns[next++]!;
      const res = await post(base, '/entities?action=delete', { urn }).catch(() => undefined);
      if (res === undefined) return;
      if (res.status === 200) acknowledged.add(urn);
    }
  };
  const deleters = Promise.all([deleter(), deleter(), deleter(), deleter()]);
  await waitUntil(
    async () => acknowledged.size,
    (n) => n >= ENTITIES / 4,
    60_000,
  );
  await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 100)));
  first.process.kill('SIGKILL');
  await first.exited;
  await deleters;

  const second = spawnService('services/catalog/src/main.ts', env);
  children.push(second);
  await waitForHealth(base, second);

  // After the restart the pipeline catches up: search and graph hold exactly what the store holds.
  const storedNow = new Set<string>();
  for (const urn of urns) if (await stored(base, urn)) storedNow.add(urn);
  for (const urn of acknowledged) expect(storedNow.has(urn), `${urn} was deleted`).toBe(false);
  expect(storedNow.size).toBeLessThan(ENTITIES);
  const same = (found: Set<string>) =>
    found.size === storedNow.size && [...found].every((u) => storedNow.has(u));
  expect([...(await waitUntil(() => searched(base), same, 60_000))].sort()).toEqual([...storedNow].sort());
  expect([...(await waitUntil(() => tagged(base), same, 60_000))].sort()).toEqual([...storedNow].sort());

  second.process.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
