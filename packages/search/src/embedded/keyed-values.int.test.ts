import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { entityRegistry } from '@catalog/model';
import { datasetDoc, datasets, datasetSpec, uniqueNamespace } from '@catalog/testkit';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument, SearchRequest } from '../port.js';
import { scratchSearchFiles } from './search-files.testing.js';

/**
 * The keyed values as field and value ids (keyed-values-schema.ts): a file whose `vals` rows spell out
 * their texts is converted at open and answers as before; the value dictionary keeps exactly the values
 * some document holds.
 */

const PLATFORMS = ['hive', 'kafka', 's3'];
const TAGS = ['pii', 'gold', 'legacy'];

function documents(ns: string): EntityDocument[] {
  return Array.from({ length: 60 }, (_, k) =>
    datasetDoc(ns, {
      name: `table_${String(k).padStart(2, '0')}${k % 7 === 0 ? '_orders' : ''}`,
      platform: PLATFORMS[k % PLATFORMS.length],
      tags: TAGS.filter((_, t) => (k >> t) % 2 === 1),
      owners: k % 5 === 0 ? [] : [`user${k % 4}`],
      createdAt: 1_700_000_000_000 + (k % 13) * 1000,
      removed: k % 11 === 3,
      customProperties: { team: k % 2 === 0 ? 'core' : 'edge' },
    }),
  );
}

/** Requests through every reader of `vals`: id lists, conditions on the dictionary, sort keys, facets. */
function requests(ns: string): SearchRequest[] {
  const eq = (field: string, ...values: string[]) => ({ field, condition: 'EQUAL' as const, values });
  return [
    datasets({ facets: ['platform', 'tags', 'owners'] }),
    datasets({ filter: { or: [{ and: [eq('platform', 'urn:li:dataPlatform:kafka')] }] }, facets: ['tags'] }),
    datasets({
      filter: {
        or: [
          {
            and: [
              eq('tags', 'urn:li:tag:pii', 'urn:li:tag:gold'),
              { ...eq('owners'), condition: 'EXISTS', negated: true },
            ],
          },
        ],
      },
      includeRemoved: true,
    }),
    datasets({ filter: { or: [{ and: [{ field: 'name', condition: 'CONTAIN', values: ['ORDERS'] }] }] } }),
    datasets({ filter: { or: [{ and: [{ field: 'name', condition: 'IEQUAL', values: ['TABLE_05'] }] }] } }),
    datasets({
      filter: {
        or: [{ and: [{ field: 'createdAt', condition: 'GREATER_THAN', values: ['1700000006000'] }] }],
      },
      sort: [{ field: 'createdAt', order: 'DESCENDING' }],
    }),
    datasets({ filter: { or: [{ and: [eq('createdAt', '1700000003000')] }] } }),
    datasets({ sort: [{ field: 'name', order: 'ASCENDING' }], searchAfter: '' }),
    datasets({
      filter: { or: [{ and: [eq('customProperties', 'team=edge')] }] },
      facets: ['customProperties'],
    }),
    datasets({ input: `id:${ns}.table_1*` }),
    datasets({ input: 'orders', facets: ['platform'] }),
  ];
}

/** Makes the file as an older build left it: `vals` rows with their texts, no dictionaries. */
function toTextLayout(path: string): void {
  const raw = new Database(path);
  raw.exec(`
    CREATE TABLE vals_text (
      doc INTEGER NOT NULL,
      field TEXT NOT NULL,
      value TEXT NOT NULL,
      num REAL,
      entity_type TEXT NOT NULL,
      removed INTEGER NOT NULL,
      PRIMARY KEY (doc, field, value)
    ) WITHOUT ROWID;
    INSERT INTO vals_text
      SELECT v.doc, f.field, x.value, x.num, f.entity_type, d.removed
      FROM vals v JOIN val_fields f ON f.id = v.field JOIN val_values x ON x.id = v.value
      JOIN docs d ON d.id = v.doc;
    DROP TABLE vals; DROP TABLE val_values; DROP TABLE val_fields;
    ALTER TABLE vals_text RENAME TO vals;
    CREATE INDEX vals_by_value ON vals (entity_type, field, value, removed);
    CREATE INDEX vals_by_num ON vals (entity_type, field, num) WHERE num IS NOT NULL;
  `);
  raw.close();
}

describe('embedded keyed values', () => {
  const { file, open, closeLast } = scratchSearchFiles('keyed-values');

  it('converts a file whose vals rows hold their texts at open, with the same search results', async () => {
    const path = file();
    const ns = uniqueNamespace();
    const first = await open(path);
    await first.search.ensureIndex(datasetSpec);
    await first.search.upsert(documents(ns));
    const before = await Promise.all(requests(ns).map((r) => first.search.search(r)));
    await closeLast();
    toTextLayout(path);

    const messages: string[] = [];
    const reopened = await open(path, messages);
    const after = await Promise.all(requests(ns).map((r) => reopened.search.search(r)));
    expect(before.every((r) => r.total > 0)).toBe(true);
    expect(after).toEqual(before);
    expect(messages).toContain('search file converted: keyed values');
    // And it keeps working: a rewrite and a delete after the conversion.
    const [changed, gone] = documents(ns);
    await reopened.search.upsert([
      { ...changed!, fields: { ...changed!.fields, platform: 'urn:li:dataPlatform:s3' } },
    ]);
    await reopened.search.delete([{ entityType: 'dataset', urn: gone!.urn }]);
    const s3 = await reopened.search.search(requests(ns)[0]!);
    expect(s3.total).toBe(before[0]!.total - 1);

    const check = new Database(path, { readonly: true });
    const columns = check.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('vals')").all();
    expect(columns.map((c) => c.name)).toEqual(['field', 'value', 'doc']);
    check.close();
  });

  it('keeps in the value dictionary exactly the values some document holds', async () => {
    const path = file();
    const ns = uniqueNamespace();
    const index = (await open(path)).search;
    await index.ensureIndex(datasetSpec);
    const a = datasetDoc(ns, { name: 'first_name', key: 'a', platform: 'kafka' });
    const b = datasetDoc(ns, { name: 'other', key: 'b', platform: 'kafka' });
    await index.upsert([a, b]);
    const db = new Database(path, { readonly: true });
    const values = () =>
      db
        .prepare<[], { field: string; value: string }>(
          'SELECT f.field AS field, x.value AS value FROM val_values x JOIN val_fields f ON f.id = x.field',
        )
        .all()
        .filter((r) => r.field === 'name' || r.field === 'platform')
        .map((r) => `${r.field}=${r.value}`)
        .sort();
    const unreferenced = () =>
      db
        .prepare<[], number>(
          'SELECT COUNT(*) FROM val_values x WHERE NOT EXISTS (SELECT 1 FROM vals v WHERE v.field = x.field AND v.value = x.id)',
        )
        .pluck()
        .get();
    expect(values()).toEqual(['name=first_name', 'name=other', 'platform=urn:li:dataPlatform:kafka']);

    await index.upsert([{ ...a, fields: { ...a.fields, name: 'second_name' } }]);
    expect(values()).toEqual(['name=other', 'name=second_name', 'platform=urn:li:dataPlatform:kafka']);
    // Soft-deleted: its values stay (they are filtered by docs.removed), only `removed` changes.
    await index.upsert([{ ...b, fields: { ...b.fields, removed: true } }]);
    expect(values()).toContain('name=other');
    expect((await index.search(datasets({ input: 'name:other' }))).total).toBe(0);
    expect((await index.search(datasets({ input: 'name:other', includeRemoved: true }))).total).toBe(1);

    await index.delete([{ entityType: 'dataset', urn: a.urn }]);
    expect(values()).toEqual(['name=other', 'platform=urn:li:dataPlatform:kafka']);
    await index.delete([{ entityType: 'dataset', urn: b.urn }]);
    expect(values()).toEqual([]);
    expect(unreferenced()).toBe(0);
    db.close();
  });

  it('keeps a number and a text of the same spelling apart, as numbers for ranges', async () => {
    const path = file();
    const ns = uniqueNamespace();
    const index = (await open(path)).search;
    await index.ensureIndex(datasetSpec);
    const numbered = datasetDoc(ns, { name: 'n', createdAt: 5 });
    const texted = datasetDoc(ns, { name: 't' });
    await index.upsert([numbered, { ...texted, fields: { ...texted.fields, createdAt: '5' } }]);
    const range = await index.search(
      datasets({
        filter: { or: [{ and: [{ field: 'createdAt', condition: 'GREATER_THAN', values: ['4'] }] }] },
      }),
    );
    expect(range.hits.map((h) => h.urn)).toEqual([numbered.urn]);
  });

  it('forgets a field id added by a batch that rolled back, which SQLite may give to another field', async () => {
    const path = file();
    const ns = uniqueNamespace();
    const index = (await open(path)).search;
    await index.ensureIndex(datasetSpec);
    await index.ensureIndex(indexSpecFor(entityRegistry.requireEntity('chart')));
    await index.upsert([datasetDoc(ns, { name: 'first' })]);
    // A batch that adds the dataset's createdAt field, then fails.
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER fail_batch BEFORE INSERT ON docs WHEN NEW.urn LIKE '%failing%'
              BEGIN SELECT RAISE(ABORT, 'failing batch'); END`);
    const dated = datasetDoc(ns, { name: 'dated', createdAt: 1_000 });
    await expect(index.upsert([dated, datasetDoc(ns, { name: 'failing' })])).rejects.toThrow('failing batch');
    raw.exec('DROP TRIGGER fail_batch');
    raw.close();
    // The next new field takes the id the rolled-back one had; createdAt must get another.
    const chart = `urn:li:chart:(looker,${ns}_c1)`;
    await index.upsert([
      { urn: chart, entityType: 'chart', fields: { urn: chart, removed: false, title: 'c' } },
    ]);
    await index.upsert([dated]);
    const range = await index.search(
      datasets({
        filter: { or: [{ and: [{ field: 'createdAt', condition: 'GREATER_THAN', values: ['999'] }] }] },
      }),
    );
    expect(range.hits.map((h) => h.urn)).toEqual([dated.urn]);
  });
});
