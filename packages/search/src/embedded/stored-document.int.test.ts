import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { entityRegistry } from '@catalog/model';
import { afterEach, describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';
import { decodeDocument, encodeDocument } from './stored-document.js';

const spec = indexSpecFor(entityRegistry.requireEntity('dataset'));

function dataset(key: string, description: string): EntityDocument {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,db.${key},PROD)`;
  return {
    urn,
    entityType: 'dataset',
    fields: {
      urn,
      removed: false,
      platform: 'urn:li:dataPlatform:hive',
      name: key,
      description,
      fieldPaths: ['order_id', 'customer.name', 'é'],
    },
  };
}

describe('stored documents', () => {
  const dirs: string[] = [];
  const opened: EmbeddedSearch[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('round-trips any JSON text, and takes text stored uncompressed as it is', () => {
    for (const json of ['{}', JSON.stringify(dataset('orders', 'ünïcode ✓ text'.repeat(40)).fields)]) {
      const stored = encodeDocument(json);
      expect(stored[0]).toBe(1);
      expect(decodeDocument(stored)).toBe(json);
      expect(decodeDocument(json)).toBe(json);
    }
    const long = JSON.stringify(dataset('orders', 'the same words again '.repeat(50)).fields);
    expect(encodeDocument(long).length).toBeLessThan(long.length / 3);
    expect(() => decodeDocument(Buffer.from([9, 1, 2]))).toThrow(/format 9/);
  });

  it('keeps documents compressed and reads rows an older file stored as JSON text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stored-document-'));
    dirs.push(dir);
    const file = join(dir, 'search.sqlite');
    const first = await openEmbeddedSearch({ file });
    opened.push(first);
    await first.search.ensureIndex(spec);
    const old = dataset('legacy', 'written before compression');
    const fresh = dataset('fresh', 'written compressed');
    await first.search.upsert([old, fresh]);
    await opened.pop()!.close();
    const raw = new Database(file);
    const types = raw
      .prepare<[], { urn: string; type: string }>('SELECT urn, typeof(doc) AS type FROM docs')
      .all();
    expect(types.map((t) => t.type)).toEqual(['blob', 'blob']);
    raw.prepare('UPDATE docs SET doc = ? WHERE urn = ?').run(JSON.stringify(old.fields), old.urn);
    raw.close();
    const reopened = await openEmbeddedSearch({ file });
    opened.push(reopened);
    expect(await reopened.search.getDocument('dataset', old.urn)).toEqual(old);
    expect(await reopened.search.getDocument('dataset', fresh.urn)).toEqual(fresh);
    // A filter on a free-text field reads the stored JSON in SQL, either form.
    const byDescription = await reopened.search.search({
      entityTypes: ['dataset'],
      input: '*',
      start: 0,
      count: 10,
      filter: { or: [{ and: [{ field: 'description', condition: 'CONTAIN', values: ['written'] }] }] },
    });
    expect(byDescription.hits.map((h) => h.urn).sort()).toEqual([fresh.urn, old.urn].sort());
    const text = await reopened.search.search({
      entityTypes: ['dataset'],
      input: 'compression',
      start: 0,
      count: 10,
    });
    expect(text.hits.map((h) => h.urn)).toEqual([old.urn]);
    expect(text.hits[0]!.matchedFields).toContainEqual({
      name: 'description',
      value: 'written before compression',
    });
  });
});
