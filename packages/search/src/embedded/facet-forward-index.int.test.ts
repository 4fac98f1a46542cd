import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countsOf, datasetDoc, datasets, datasetSpec, uniqueNamespace } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { FacetForwardIndex } from './facet-forward-index.js';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';

const opened: EmbeddedSearch[] = [];
let dir: string | undefined;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function twoConnections(): Promise<{ writer: EmbeddedSearch; reader: EmbeddedSearch }> {
  dir = mkdtempSync(join(tmpdir(), 'facet-forward-'));
  const file = join(dir, 'search.sqlite');
  const writer = await openEmbeddedSearch({ file });
  const reader = await openEmbeddedSearch({ file });
  opened.push(writer, reader);
  await writer.search.ensureIndex(datasetSpec);
  return { writer, reader };
}

describe('facet counts in memory, across connections', () => {
  it('follow what another connection (the indexer thread) writes after the counts were first built', async () => {
    const { writer, reader } = await twoConnections();
    const ns = uniqueNamespace();
    const doc = (name: string, tags: string[], removed = false) =>
      datasetDoc(ns, { name, tags, description: 'ledger', removed });
    await writer.search.upsert([doc('a1', ['pii']), doc('a2', ['pii', 'gold'])]);
    const ledger = datasets({ input: 'ledger', facets: ['tags'] });
    const all = datasets({ facets: ['tags'] });
    expect(countsOf(await reader.search.search(ledger), 'tags')).toEqual({
      'urn:li:tag:pii': 2,
      'urn:li:tag:gold': 1,
    });
    expect(countsOf(await reader.search.search(all), 'tags')).toEqual({
      'urn:li:tag:pii': 2,
      'urn:li:tag:gold': 1,
    });

    await writer.search.upsert([doc('a1', ['silver']), doc('a2', ['pii'], true), doc('a3', ['gold'])]);
    expect(countsOf(await reader.search.search(ledger), 'tags')).toEqual({
      'urn:li:tag:silver': 1,
      'urn:li:tag:gold': 1,
    });
    await writer.search.delete([{ entityType: 'dataset', urn: doc('a3', []).urn }]);
    expect(countsOf(await reader.search.search(all), 'tags')).toEqual({ 'urn:li:tag:silver': 1 });
    expect(countsOf(await reader.search.search({ ...all, includeRemoved: true }), 'tags')).toEqual({
      'urn:li:tag:silver': 1,
      'urn:li:tag:pii': 1,
    });
  });

  it('start over after the other connection wiped and rebuilt the index', async () => {
    const { writer, reader } = await twoConnections();
    const ns = uniqueNamespace();
    await writer.search.upsert([datasetDoc(ns, { name: 'a1', tags: ['pii'] })]);
    const all = datasets({ facets: ['tags'] });
    expect(countsOf(await reader.search.search(all), 'tags')).toEqual({ 'urn:li:tag:pii': 1 });
    await writer.search.deleteIndex('dataset');
    await writer.search.ensureIndex(datasetSpec);
    await writer.search.upsert([datasetDoc(ns, { name: 'b1', tags: ['gold'] })]);
    expect(countsOf(await reader.search.search(all), 'tags')).toEqual({ 'urn:li:tag:gold': 1 });
  });

  it('count multi-valued fields exactly through many rewrites of the same documents', async () => {
    // Each rewrite leaves the document's old run of values behind in the pool, so rounds of rewrites
    // of 600 documents with up to five tags each force the pool to be compacted several times.
    const { writer, reader } = await twoConnections();
    const ns = uniqueNamespace();
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * n);
    };
    const model = new Map<string, string[]>();
    const all = datasets({ facets: ['tags'], count: 0 });
    // A text query with an exact-value filter tests the filter on each hit in memory (matcher).
    const withT3 = datasets({
      input: 'ledger',
      facets: ['tags'],
      count: 0,
      filter: { or: [{ and: [{ field: 'tags', condition: 'EQUAL', values: ['urn:li:tag:t3'] }] }] },
    });
    for (let round = 0; round < 6; round++) {
      const docs = Array.from({ length: 600 }, (_, i) => {
        const tags = [...new Set(Array.from({ length: random(6) }, () => `t${random(12)}`))];
        model.set(`d${i}`, tags);
        return datasetDoc(ns, { name: `d${i}`, tags, description: 'ledger' });
      });
      await writer.search.upsert(docs);
      const expected: Record<string, number> = {};
      const expectedWithT3: Record<string, number> = {};
      let t3Count = 0;
      for (const tags of model.values()) {
        for (const t of tags) expected[`urn:li:tag:${t}`] = (expected[`urn:li:tag:${t}`] ?? 0) + 1;
        if (!tags.includes('t3')) continue;
        t3Count++;
        for (const t of tags)
          expectedWithT3[`urn:li:tag:${t}`] = (expectedWithT3[`urn:li:tag:${t}`] ?? 0) + 1;
      }
      expect(countsOf(await reader.search.search(all), 'tags'), `round ${round}`).toEqual(expected);
      const filtered = await reader.search.search(withT3);
      expect(filtered.total, `round ${round}`).toBe(t3Count);
      expect(countsOf(filtered, 'tags'), `round ${round}`).toEqual(expectedWithT3);
    }
  });

  it('know how many documents have each value through rewrites, removals and deletions', async () => {
    // The counts choose between reading a value's id list and a pass over every document (exactFilterIds).
    const { writer } = await twoConnections();
    const db = new Database(join(dir!, 'search.sqlite'), { readonly: true });
    try {
      const forward = new FacetForwardIndex(db);
      const ns = uniqueNamespace();
      const model = new Map<string, string[]>();
      const expectCounts = (round: number): void => {
        forward.sync();
        for (const tag of ['t0', 't1', 't2', 't3']) {
          const expected = [...model.values()].filter((tags) => tags.includes(tag)).length;
          expect(forward.valueCount('dataset', 'tags', [`urn:li:tag:${tag}`]), `round ${round} ${tag}`).toBe(
            expected,
          );
        }
      };
      await writer.search.upsert([datasetDoc(ns, { name: 'seed', tags: ['t0'] })]);
      model.set('seed', ['t0']);
      forward.sync();
      expect(forward.valueCount('dataset', 'tags', ['urn:li:tag:t0'])).toBeUndefined();
      forward.count('dataset', 'tags', undefined, false);
      expectCounts(-1);
      for (let round = 0; round < 5; round++) {
        const docs = Array.from({ length: 50 }, (_, i) => {
          const tags = [`t${(i + round) % 4}`, ...(i % 3 === 0 ? [`t${(i + round + 1) % 4}`] : [])];
          model.set(`d${i}`, tags);
          return datasetDoc(ns, { name: `d${i}`, tags, removed: i % 7 === round });
        });
        await writer.search.upsert(docs);
        const gone = `d${round * 3}`;
        await writer.search.delete([{ entityType: 'dataset', urn: datasetDoc(ns, { name: gone }).urn }]);
        model.delete(gone);
        expectCounts(round);
      }
    } finally {
      db.close();
    }
  });
});
