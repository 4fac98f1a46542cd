import Database from 'better-sqlite3';
import { entityRegistry } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { columnText, indexedEntity } from './indexed-entity.js';
import { scratchSearchFiles } from './search-files.testing.js';

const spec = indexSpecFor(entityRegistry.requireEntity('dataset'));
const entity = indexedEntity(spec);
const WORDS = [
  'customer',
  'customers',
  'custom',
  'cust',
  'order',
  'orders',
  'ordinal',
  'café',
  'cafe',
  'naïve',
  'id',
  'identity',
  'revenue',
  'rev',
  'daily',
  'data',
  'database',
  'über',
  'uber',
  'x1',
  'x10',
];

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function datasetDocument(key: number, rand: () => number, removed: boolean): EntityDocument {
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const words = (n: number) => Array.from({ length: n }, pick).join(' ');
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${key},PROD)`;
  const fields: Record<string, string | boolean | string[]> = {
    urn,
    removed,
    platform: 'urn:li:dataPlatform:hive',
    name: `${pick()}_${pick()}`,
    id: `db.t${key}`,
    fieldPaths: Array.from({ length: Math.floor(rand() * 4) }, () => `${pick()}.${pick()}`),
    tags: Array.from({ length: Math.floor(rand() * 3) }, () => `urn:li:tag:${pick()}`),
  };
  if (rand() < 0.7) fields['description'] = words(Math.floor(rand() * 12));
  return { urn, entityType: 'dataset', fields };
}

/**
 * The FTS5 table the text index replaced, fed the live documents: its bm25 ranking is the reference.
 * The table is made afresh for each query: FTS5's contentless tables never take a deleted row out of
 * their document count and total length, which the text index does.
 */
class Fts5Reference {
  private readonly live = new Map<string, EntityDocument>();

  upsert(doc: EntityDocument): void {
    this.live.delete(doc.urn);
    this.live.set(doc.urn, doc);
  }

  delete(urn: string): void {
    this.live.delete(urn);
  }

  /** Every live match of the terms as word prefixes, by score descending then urn. */
  search(terms: readonly string[]): { urn: string; score: number }[] {
    const db = new Database(':memory:');
    const columns = entity.columns.map((_, i) => `c${i}`).join(', ');
    db.exec(
      `CREATE VIRTUAL TABLE fts USING fts5(${columns}, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`,
    );
    const insert = db.prepare(
      `INSERT INTO fts (rowid, ${columns}) VALUES (?${', ?'.repeat(entity.columns.length)})`,
    );
    const urns = [...this.live.keys()];
    urns.forEach((urn, i) =>
      insert.run(i + 1, ...entity.columns.map((c) => columnText(c, this.live.get(urn)!.fields))),
    );
    const weights = entity.columns.map((c) => c.weight).join(', ');
    const rows = db
      .prepare<[string], { id: number; score: number }>(
        `SELECT rowid AS id, -bm25(fts, ${weights}) AS score FROM fts WHERE fts MATCH ?`,
      )
      .all(terms.map((t) => `"${t}"*`).join(' AND '));
    db.close();
    return rows
      .map((r) => ({ urn: urns[r.id - 1]!, score: r.score }))
      .filter((r) => this.live.get(r.urn)?.fields['removed'] !== true)
      .sort((a, b) => b.score - a.score || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  }
}

describe('embedded text index', () => {
  const { file, open, closeLast } = scratchSearchFiles('text-index');

  it('ranks every text query as FTS5 bm25 did, through rewrites, deletes and segment merges', async () => {
    const path = file();
    const writer = await open(path);
    // A second connection reads, so its in-memory state follows the writer's changes by replay.
    const reader = await open(path);
    await writer.search.ensureIndex(spec);
    const reference = new Fts5Reference();
    const rand = random(7);
    const queries = [
      ['customer'],
      ['cust'],
      ['ord'],
      ['cafe'],
      ['café'],
      ['uber'],
      ['x1'],
      ['id'],
      ['da'],
      ['customer', 'order'],
      ['rev', 'daily'],
      ['naive'],
      ['orders', 'cust', 'id'],
      ['zzz'],
    ];
    for (let batch = 0; batch < 160; batch++) {
      const docs: EntityDocument[] = [];
      const size = 1 + Math.floor(rand() * (batch % 10 === 0 ? 40 : 6));
      for (let k = 0; k < size; k++) docs.push(datasetDocument(Math.floor(rand() * 300), rand, rand() < 0.1));
      await writer.search.upsert(docs);
      for (const doc of docs) reference.upsert(doc);
      if (batch % 7 === 3) {
        const gone = datasetDocument(Math.floor(rand() * 300), rand, false).urn;
        await writer.search.delete([{ entityType: 'dataset', urn: gone }]);
        reference.delete(gone);
      }
      if (batch % 20 !== 19) continue;
      for (const terms of queries) {
        const expected = reference.search(terms);
        const result = await reader.search.search({
          entityTypes: ['dataset'],
          input: terms.join(' '),
          start: 0,
          count: 25,
        });
        expect(result.total, terms.join(' ')).toBe(expected.length);
        const page = expected.slice(0, 25);
        expect(
          result.hits.map((h) => h.urn),
          terms.join(' '),
        ).toEqual(page.map((e) => e.urn));
        // The same arithmetic; only the logarithm of the IDF may round differently in its last bit.
        result.hits.forEach((hit, i) => {
          expect(Math.abs(hit.score - page[i]!.score)).toBeLessThanOrEqual(1e-12 * page[i]!.score);
        });
      }
    }
    const segments = new Database(path, { readonly: true });
    const count = segments.prepare('SELECT COUNT(*) FROM text_segments').pluck().get() as number;
    segments.close();
    // 160 batches merged into a few segments per size level.
    expect(count).toBeLessThan(20);
  });

  it('finds every word of a prefix when the words of a segment fill many blocks', async () => {
    const search = (await open(file())).search;
    await search.ensureIndex(spec);
    // 6,000 distinct words in one batch (one segment), then 600 more in small batches that merge.
    const word = (i: number) => `w${(i * 7919) % 100_000}`;
    const docs = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => {
        const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,db.b${from + k},PROD)`;
        return {
          urn,
          entityType: 'dataset',
          fields: { urn, removed: false, description: `${word(from + k)} common` },
        } satisfies EntityDocument;
      });
    await search.upsert(docs(0, 6_000));
    for (let at = 6_000; at < 6_600; at += 20) await search.upsert(docs(at, at + 20));
    const words = Array.from({ length: 6_600 }, (_, i) => word(i));
    for (const prefix of ['w1', 'w42', 'w9', 'w99', 'w5003', 'w']) {
      const result = await search.search({ entityTypes: ['dataset'], input: prefix, start: 0, count: 1 });
      expect(result.total, prefix).toBe(words.filter((w) => w.startsWith(prefix)).length);
    }
    for (const i of [0, 1, 2_999, 5_999, 6_000, 6_599]) {
      const result = await search.search({
        entityTypes: ['dataset'],
        input: `${word(i)} common`,
        start: 0,
        count: 5,
      });
      expect(result.hits.map((h) => h.urn)).toContain(
        `urn:li:dataset:(urn:li:dataPlatform:hive,db.b${i},PROD)`,
      );
    }
  });

  it('matches a document holding every one of 300 query words', async () => {
    const search = (await open(file())).search;
    await search.ensureIndex(spec);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const words = Array.from({ length: 300 }, (_, i) => `${letters[Math.floor(i / 26)]}${letters[i % 26]}`);
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.many,PROD)';
    const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.fewer,PROD)';
    await search.upsert([
      { urn, entityType: 'dataset', fields: { urn, removed: false, description: words.join(' ') } },
      {
        urn: other,
        entityType: 'dataset',
        fields: { urn: other, removed: false, description: words.slice(0, 299).join(' ') },
      },
    ]);
    const result = await search.search({
      entityTypes: ['dataset'],
      input: words.join(' '),
      start: 0,
      count: 5,
    });
    expect(result.hits.map((h) => h.urn)).toEqual([urn]);
  });

  it('converts a file whose text is in an FTS5 table into the text index at open', async () => {
    const path = file();
    const first = await open(path);
    await first.search.ensureIndex(spec);
    const rand = random(11);
    const docs = Array.from({ length: 50 }, (_, k) => datasetDocument(k, rand, false));
    await first.search.upsert(docs);
    const before = await first.search.search({
      entityTypes: ['dataset'],
      input: 'cust',
      start: 0,
      count: 50,
    });
    await closeLast();
    // Make the file as an older build left it: an FTS5 table, no text index tables or columns.
    const raw = new Database(path);
    raw.exec(`
      DROP TABLE text_blocks; DROP TABLE text_segments; DROP TABLE text_stats; DROP TABLE text_seq;
      DROP INDEX docs_by_text_seq; DROP INDEX docs_text_state;
      ALTER TABLE docs DROP COLUMN text_seq; ALTER TABLE docs DROP COLUMN text_length;
      CREATE VIRTUAL TABLE fts_dataset USING fts5(c0, content='');
    `);
    raw.close();
    const reopened = await open(path);
    const after = await reopened.search.search({
      entityTypes: ['dataset'],
      input: 'cust',
      start: 0,
      count: 50,
    });
    expect(before.total).toBeGreaterThan(0);
    expect(after).toEqual(before);
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'fts_dataset'").get()).toBeUndefined();
    check.close();
  });
});
