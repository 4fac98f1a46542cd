import type Database from 'better-sqlite3';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { DerivedRowStore } from './derived-row-store.js';
import { browseRowsOf, DERIVATION_VERSION, valRowsOf } from './derived-rows.js';
import { REPLAY_AT_MOST } from './doc-change-feed.js';
import { indexedEntity } from './indexed-entity.js';
import { decodeDocument } from './stored-document.js';
import type { ConversionLogger } from './text-index-conversion.js';

const VERSION_KEY = 'derivation_version';

/**
 * `search_meta` holds the DERIVATION_VERSION the `vals` and `browse` rows were derived with
 * (derived-rows.ts). A file of another version (or none: a file made when the writer found rows by
 * document, through `browse_by_doc`, which is dropped here) has every document's rows
 * rebuilt from `docs` and the stored specs, in one write transaction: a crash leaves the file as it
 * was, and the next open rebuilds again. Values no document holds any more leave `val_values`; field ids
 * stay (they are never deleted). Every document is recorded as changed, for readers' in-memory indexes.
 */
export function migrateDerivedRows(db: Database.Database, logger?: ConversionLogger): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
    DROP INDEX IF EXISTS browse_by_doc;
  `);
  const stored = storedDerivationVersion(db);
  if (stored === DERIVATION_VERSION) return;
  const docs = db.prepare<[], number>('SELECT COUNT(*) FROM docs').pluck().get() ?? 0;
  if (docs === 0) {
    setDerivationVersion(db, DERIVATION_VERSION);
    return;
  }
  const started = Date.now();
  logger?.info(
    { docs, from: stored ?? null, to: DERIVATION_VERSION },
    'rebuilding the search file: derived rows',
  );
  db.transaction(() => rebuildDerivedRows(db)).immediate();
  logger?.info({ docs, ms: Date.now() - started }, 'search file rebuilt: derived rows');
}

export function storedDerivationVersion(db: Database.Database): number | undefined {
  return db.prepare<[string], number>('SELECT value FROM search_meta WHERE key = ?').pluck().get(VERSION_KEY);
}

export function setDerivationVersion(db: Database.Database, version: number): void {
  db.prepare(
    'INSERT INTO search_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(VERSION_KEY, version);
}

function rebuildDerivedRows(db: Database.Database): void {
  db.exec('DELETE FROM vals; DELETE FROM browse');
  const rows = new DerivedRowStore(db);
  rows.ids.begin();
  const specs = db.prepare<[], { spec: string }>('SELECT spec FROM index_specs').all();
  // In pages by id: the connection cannot write while a query over docs is open.
  const docsOf = db.prepare<[string, number], { id: number; removed: number; doc: string | Uint8Array }>(
    'SELECT id, removed, doc FROM docs WHERE entity_type = ? AND id > ? ORDER BY id LIMIT 1000',
  );
  for (const { spec } of specs) {
    const entity = indexedEntity(JSON.parse(spec) as EntityIndexSpec);
    const type = entity.spec.entityType;
    for (let page = docsOf.all(type, 0); page.length > 0; page = docsOf.all(type, page.at(-1)!.id)) {
      for (const row of page) {
        const fields = JSON.parse(decodeDocument(row.doc)) as EntityDocument['fields'];
        rows.addVals(row.id, type, valRowsOf(entity, fields));
        rows.addBrowse(row.id, type, browseRowsOf(fields), row.removed);
      }
    }
  }
  db.exec(`
    DELETE FROM val_values WHERE NOT EXISTS
      (SELECT 1 FROM vals v WHERE v.field = val_values.field AND v.value = val_values.id);
    INSERT INTO doc_changes (doc) SELECT id FROM docs;
  `);
  db.prepare('DELETE FROM doc_changes WHERE seq <= (SELECT MAX(seq) FROM doc_changes) - ?').run(
    2 * REPLAY_AT_MOST,
  );
  setDerivationVersion(db, DERIVATION_VERSION);
}
