import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { datasetDoc, datasets, datasetSpec, seededRandom, uniqueNamespace } from '@catalog/testkit';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { browseRowsOf, DERIVATION_VERSION, valRowsOf } from './derived-rows.js';
import { indexedEntity } from './indexed-entity.js';
import { scratchSearchFiles } from './search-files.testing.js';
import { decodeDocument } from './stored-document.js';

/**
 * The writer finds a document's `vals` and `browse` rows by deriving them
 * from its stored fields (derived-rows.ts). After any sequence of writes the tables must hold exactly
 * what deriving every stored document gives, and a file whose rows another derivation wrote has them
 * rebuilt at open.
 */

/** The spec with `description` keyed (a filter on it), or as the registry has it (free text). */
function specWith(descriptionKeyed: boolean): EntityIndexSpec {
  return {
    ...datasetSpec,
    fields: datasetSpec.fields.map((f) =>
      f.name === 'description' ? { ...f, filterable: descriptionKeyed } : f,
    ),
  };
}

/** The rows in the file, as text. */
function tableRows(db: Database.Database): { vals: string[]; browse: string[]; orphanValues: number } {
  const vals = db
    .prepare<[], { entity_type: string; field: string; value: string; num: number | null; doc: number }>(
      `SELECT f.entity_type, f.field, x.value, x.num, v.doc
       FROM vals v JOIN val_fields f ON f.id = v.field JOIN val_values x ON x.id = v.value`,
    )
    .all()
    .map((r) => JSON.stringify([r.entity_type, r.field, r.value, r.num, r.doc]));
  const browse = db
    .prepare<[], Record<string, unknown>>(
      'SELECT entity_type, parent, leaf, segment, doc, removed, multi FROM browse',
    )
    .all()
    .map((r) =>
      JSON.stringify([
        r['entity_type'],
        r['parent'],
        r['leaf'],
        r['segment'],
        r['doc'],
        r['removed'],
        r['multi'],
      ]),
    );
  const orphanValues = db
    .prepare<[], number>(
      `SELECT COUNT(*) FROM val_values x
       WHERE NOT EXISTS (SELECT 1 FROM vals v WHERE v.field = x.field AND v.value = x.id)`,
    )
    .pluck()
    .get()!;
  return { vals: vals.sort(), browse: browse.sort(), orphanValues };
}

/** The rows deriving every stored document with its type's stored spec gives. */
function derivedRows(db: Database.Database): { vals: string[]; browse: string[]; orphanValues: number } {
  const specs = new Map(
    db
      .prepare<[], { entity_type: string; spec: string }>('SELECT entity_type, spec FROM index_specs')
      .all()
      .map((r) => [r.entity_type, indexedEntity(JSON.parse(r.spec) as EntityIndexSpec)]),
  );
  const vals: string[] = [];
  const browse: string[] = [];
  const docs = db
    .prepare<[], { id: number; entity_type: string; removed: number; doc: string | Uint8Array }>(
      'SELECT id, entity_type, removed, doc FROM docs',
    )
    .all();
  for (const d of docs) {
    const fields = JSON.parse(decodeDocument(d.doc)) as EntityDocument['fields'];
    for (const r of valRowsOf(specs.get(d.entity_type)!, fields))
      vals.push(JSON.stringify([d.entity_type, r.field, r.value, r.num, d.id]));
    for (const r of browseRowsOf(fields))
      browse.push(JSON.stringify([d.entity_type, r.parent, r.leaf, r.segment, d.id, d.removed, r.multi]));
  }
  return { vals: vals.sort(), browse: browse.sort(), orphanValues: 0 };
}

describe('embedded derived rows', () => {
  const { file, open, closeLast } = scratchSearchFiles('derived-rows');
  const raws: Database.Database[] = [];
  afterEach(() => {
    for (const r of raws.splice(0)) r.close();
  });
  const raw = (path: string) => {
    const db = new Database(path);
    raws.push(db);
    return db;
  };

  it('keeps vals and browse exactly as derived through rewrites, renames, soft and hard deletes and spec changes', async () => {
    const path = file();
    const { search } = await open(path);
    const db = raw(path);
    const ns = uniqueNamespace();
    const random = seededRandom(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const some = <T>(list: readonly T[]): T[] => list.filter(() => random() < 0.4);
    let descriptionKeyed = false;
    await search.ensureIndex(specWith(descriptionKeyed));
    const doc = (k: number) =>
      datasetDoc(ns, {
        key: `t${k}`,
        name: pick([`table ${k}`, `renamed ${k}`, 'shared name']),
        platform: pick(['hive', 'kafka']),
        tags: some(['pii', 'gold', 'legacy', 'gold']),
        owners: some(['ann', 'bob']),
        description: pick([undefined, 'orders of the day', `about ${k}`]),
        createdAt: pick([undefined, 1_700_000_000_000 + k, 1_700_000_000_000]),
        removed: random() < 0.2,
        browsePaths: pick([
          undefined,
          [],
          [`/prod/hive/${ns}`],
          [`/prod/hive/${ns}`, `//prod/hive/${ns}/`],
          [`/prod/hive/${ns}`, `/dev/${ns}/x`, `/prod/hive`],
        ]),
      });
    for (let step = 0; step < 40; step++) {
      const action = random();
      if (action < 0.6) {
        await search.upsert(
          Array.from({ length: 1 + Math.floor(random() * 8) }, () => doc(Math.floor(random() * 30))),
        );
      } else if (action < 0.85) {
        const gone = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
          doc(Math.floor(random() * 30)),
        );
        await search.delete(gone.map((d) => ({ entityType: d.entityType, urn: d.urn })));
      } else {
        descriptionKeyed = !descriptionKeyed;
        await search.ensureIndex(specWith(descriptionKeyed));
      }
      expect(tableRows(db), `after step ${step}`).toEqual(derivedRows(db));
    }
    // The writes did reach the tables the check reads.
    expect(tableRows(db).vals.length).toBeGreaterThan(50);
    expect(tableRows(db).browse.length).toBeGreaterThan(20);
  });

  it('rebuilds the rows of a file written by another derivation at open, and drops browse_by_doc', async () => {
    const path = file();
    const ns = uniqueNamespace();
    {
      const { search } = await open(path);
      await search.ensureIndex(datasetSpec);
      await search.upsert(
        Array.from({ length: 20 }, (_, k) =>
          datasetDoc(ns, { name: `t${k}`, tags: k % 2 === 0 ? ['pii'] : ['gold'], removed: k === 3 }),
        ),
      );
      await closeLast();
    }
    // As another derivation (or a build before the version) would have left it: other rows, the
    // browse index by document, another version.
    {
      const db = new Database(path);
      db.exec(`
        DELETE FROM vals WHERE doc % 3 = 0;
        DELETE FROM browse WHERE leaf = 1 AND doc % 2 = 0;
        INSERT INTO browse (entity_type, parent, leaf, segment, doc, removed, multi)
          VALUES ('dataset', '/stale', 1, 'stale', 1, 0, 0);
        CREATE INDEX browse_by_doc ON browse (doc);
        UPDATE search_meta SET value = ${DERIVATION_VERSION + 1};
      `);
      expect(tableRows(db)).not.toEqual(derivedRows(db));
      db.close();
    }
    const messages: string[] = [];
    const { search } = await open(path, messages);
    expect(messages).toContain('rebuilding the search file: derived rows');
    const db = raw(path);
    expect(tableRows(db)).toEqual(derivedRows(db));
    expect(
      db
        .prepare("SELECT name FROM sqlite_master WHERE name IN ('browse_by_doc', 'vals_by_doc')")
        .pluck()
        .all(),
    ).toEqual(['vals_by_doc']);
    expect(db.prepare("SELECT value FROM search_meta WHERE key = 'derivation_version'").pluck().get()).toBe(
      DERIVATION_VERSION,
    );
    const facets = await search.search(datasets({ input: ns, facets: ['tags'] }));
    expect(facets.total).toBe(19);
    // Opened again at the same version: nothing to rebuild.
    await closeLast();
    const again: string[] = [];
    await open(path, again);
    expect(again).not.toContain('rebuilding the search file: derived rows');
  });
});
