import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countsOf, datasetDoc, datasets, datasetSpec, uniqueNamespace } from '@catalog/testkit';
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
});
