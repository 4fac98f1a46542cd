import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { entityRegistry } from '@catalog/model';
import { afterEach, describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';

const spec = indexSpecFor(entityRegistry.requireEntity('dataset'));

function dataset(key: string, browsePaths: string[]): EntityDocument {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,db.${key},PROD)`;
  return { urn, entityType: 'dataset', fields: { urn, removed: false, name: key, browsePaths } };
}

const DOCS = [
  dataset('a', ['/prod/hive/db1']),
  dataset('b', ['/prod/hive/db1']),
  // Two rows under /prod/hive (groups db1 and db2), and two under /prod.
  dataset('shared', ['/prod/hive/db1', '/prod/hive/db2', '/prod/kafka']),
  // The same folder written twice: one path.
  dataset('twice', ['/prod/hive/db2', 'prod/hive/db2/']),
];

describe('browse counts of documents under several paths', () => {
  const dirs: string[] = [];
  const opened: EmbeddedSearch[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const open = async (file: string): Promise<EmbeddedSearch> => {
    const search = await openEmbeddedSearch({ file });
    opened.push(search);
    return search;
  };
  const totals = async (search: EmbeddedSearch) => {
    const out: Record<string, unknown> = {};
    for (const path of ['/prod', '/prod/hive', '/prod/hive/db1', '/prod/hive/db2']) {
      const r = await search.search.browse({ entityType: 'dataset', path, start: 0, limit: 10 });
      out[path] = { groups: r.groups, totalEntities: r.totalEntities, totalNumEntities: r.totalNumEntities };
    }
    return out;
  };
  const expected = {
    '/prod': {
      groups: [
        { name: 'hive', count: 4 },
        { name: 'kafka', count: 1 },
      ],
      totalEntities: 0,
      totalNumEntities: 4,
    },
    '/prod/hive': {
      groups: [
        { name: 'db1', count: 3 },
        { name: 'db2', count: 2 },
      ],
      totalEntities: 0,
      totalNumEntities: 4,
    },
    '/prod/hive/db1': { groups: [], totalEntities: 3, totalNumEntities: 3 },
    '/prod/hive/db2': { groups: [], totalEntities: 2, totalNumEntities: 2 },
  };

  it('counts each entity once, and follows a document going from several paths to one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'browse-multi-'));
    dirs.push(dir);
    const search = await open(join(dir, 'search.sqlite'));
    await search.search.ensureIndex(spec);
    await search.search.upsert(DOCS);
    expect(await totals(search)).toEqual(expected);
    await search.search.upsert([dataset('shared', ['/prod/hive/db1'])]);
    const prod = await search.search.browse({ entityType: 'dataset', path: '/prod', start: 0, limit: 10 });
    expect(prod.groups).toEqual([{ name: 'hive', count: 4 }]);
    expect(prod.totalNumEntities).toBe(4);
    const hive = await search.search.browse({
      entityType: 'dataset',
      path: '/prod/hive',
      start: 0,
      limit: 10,
    });
    expect(hive.totalNumEntities).toBe(4);
  });

  it('marks the rows of a file made before the column at open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'browse-multi-'));
    dirs.push(dir);
    const file = join(dir, 'search.sqlite');
    const first = await open(file);
    await first.search.ensureIndex(spec);
    await first.search.upsert(DOCS);
    await opened.pop()!.close();
    // As an older build left it: browse without `multi`.
    const db = new Database(file);
    db.exec(`
      CREATE TABLE browse_old (
        entity_type TEXT NOT NULL, parent TEXT NOT NULL, leaf INTEGER NOT NULL, segment TEXT NOT NULL,
        doc INTEGER NOT NULL, removed INTEGER NOT NULL,
        PRIMARY KEY (entity_type, parent, leaf, segment, doc)
      ) WITHOUT ROWID;
      INSERT INTO browse_old SELECT entity_type, parent, leaf, segment, doc, removed FROM browse;
      DROP TABLE browse;
      ALTER TABLE browse_old RENAME TO browse;
      CREATE INDEX browse_by_doc ON browse (doc);
    `);
    db.close();
    const again = await open(file);
    expect(await totals(again)).toEqual(expected);
    const check = new Database(file, { readonly: true });
    const marked = check
      .prepare<[], { urn: string }>(
        'SELECT DISTINCT d.urn AS urn FROM browse b JOIN docs d ON d.id = b.doc WHERE b.multi = 1',
      )
      .all();
    check.close();
    expect(marked.map((r) => r.urn)).toEqual([DOCS[2]!.urn]);
  });
});
