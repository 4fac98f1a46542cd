import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entityRegistry } from '@catalog/model';
import { datasetDoc, datasetSpec, uniqueNamespace } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { FacetForwardIndex } from './facet-forward-index.js';
import { indexedEntity } from './indexed-entity.js';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';
import { SearchWarmer } from './search-warmer.js';
import { TextIndexReader } from './text-index-reader.js';

const corpuserSpec = indexSpecFor(entityRegistry.requireEntity('corpuser'));
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A search file with a writer connection (the indexer's) and the warmer's structures on another. */
async function setUp(options: { minDocuments: number; intervalMs?: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'search-warmer-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'search.sqlite');
  const writer: EmbeddedSearch = await openEmbeddedSearch({ file });
  cleanups.push(() => writer.close());
  await writer.search.ensureIndex(datasetSpec);
  await writer.search.ensureIndex(corpuserSpec);
  const db = new Database(file);
  cleanups.push(() => {
    db.close();
  });
  const forward = new FacetForwardIndex(db);
  const text = new TextIndexReader(db);
  const entities = new Map([datasetSpec, corpuserSpec].map((spec) => [spec.entityType, indexedEntity(spec)]));
  const warmer = () => {
    const w = new SearchWarmer(db, forward, text, (type) => entities.get(type), options);
    cleanups.push(() => w.stop());
    return w;
  };
  return { writer: writer.search, forward, text, warmer };
}

function user(ns: string, name: string): EntityDocument {
  const urn = `urn:li:corpuser:${ns}${name}`;
  return { urn, entityType: 'corpuser', fields: { urn, _entityType: 'corpuser', removed: false } };
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('search warmer', () => {
  it('reads the large entity types and their filterable fields when it starts, and not the small ones', async () => {
    const { writer, forward, text, warmer } = await setUp({ minDocuments: 3 });
    const ns = uniqueNamespace();
    await writer.upsert([
      datasetDoc(ns, { name: 'a', tags: ['pii'] }),
      datasetDoc(ns, { name: 'b', tags: ['gold'] }),
      datasetDoc(ns, { name: 'c' }),
      user(ns, 'x'),
    ]);
    warmer().start();
    expect(text.holds('dataset')).toBe(true);
    expect(forward.holds('dataset')).toBe(true);
    for (const field of ['platform', 'tags', 'owners', 'origin'])
      expect(forward.inMemory('dataset', field)).toBe(true);
    // Keyed but not offered as a filter: left to the first query that asks.
    expect(forward.inMemory('dataset', 'name')).toBe(false);
    expect(forward.valueCount('dataset', 'tags', ['urn:li:tag:pii', 'urn:li:tag:gold'])).toBe(2);
    expect(forward.ordered('dataset')).toBe(true);
    expect(text.holds('corpuser')).toBe(false);
    expect(forward.holds('corpuser')).toBe(false);
    expect(forward.ordered('corpuser')).toBe(false);
  });

  it('keeps them current with what another connection writes, with no query in between', async () => {
    const { writer, forward, warmer } = await setUp({ minDocuments: 1, intervalMs: 10 });
    const ns = uniqueNamespace();
    await writer.upsert([datasetDoc(ns, { name: 'a', tags: ['pii'] })]);
    warmer().start();
    expect(forward.valueCount('dataset', 'tags', ['urn:li:tag:gold'])).toBe(0);
    await writer.upsert([
      datasetDoc(ns, { name: 'a', tags: ['gold'] }),
      datasetDoc(ns, { name: 'b', tags: ['gold'] }),
    ]);
    await eventually(
      () => forward.valueCount('dataset', 'tags', ['urn:li:tag:gold']) === 2,
      'the new tags are counted',
    );
    expect(forward.valueCount('dataset', 'tags', ['urn:li:tag:pii'])).toBe(0);
  });

  it('reads an entity type once it has grown large', async () => {
    const { writer, forward, text, warmer } = await setUp({ minDocuments: 3, intervalMs: 10 });
    const ns = uniqueNamespace();
    await writer.upsert([user(ns, 'x')]);
    warmer().start();
    expect(text.holds('corpuser')).toBe(false);
    await writer.upsert([user(ns, 'y'), user(ns, 'z')]);
    await eventually(() => text.holds('corpuser') && forward.holds('corpuser'), 'the users are read');
  });

  it('stops catching up once stopped', async () => {
    const { writer, forward, warmer } = await setUp({ minDocuments: 1, intervalMs: 10 });
    const ns = uniqueNamespace();
    await writer.upsert([datasetDoc(ns, { name: 'a', tags: ['pii'] })]);
    const w = warmer();
    w.start();
    w.stop();
    await writer.upsert([datasetDoc(ns, { name: 'b', tags: ['pii'] })]);
    await new Promise((r) => setTimeout(r, 100));
    expect(forward.valueCount('dataset', 'tags', ['urn:li:tag:pii'])).toBe(1);
  });

  it('refuses settings it cannot follow', async () => {
    const { warmer: bad } = await setUp({ minDocuments: -1 });
    expect(() => bad()).toThrow(/minDocuments must be a non-negative integer/);
    const { warmer: zero } = await setUp({ minDocuments: 1, intervalMs: 0 });
    expect(() => zero()).toThrow(/intervalMs must be positive/);
  });
});
