import type Database from 'better-sqlite3';
import type { ConversionLogger } from './text-index-conversion.js';

/**
 * The keyed values of the documents (filters, facets, sort keys, colon queries), in three tables:
 * - `val_fields`: one id per (entity_type, field) pair. Its rows are never deleted, so an id a
 *   connection has read stays valid for the life of the file.
 * - `val_values`: one id per distinct (field id, value text, num) — num is the value as a number for
 *   numbers and dates, NULL for text; a text and a number of the same spelling are two values, as they
 *   were two rows. The writer deletes an id once no document holds it (KeyedValueIds), so the table
 *   holds exactly the values there are. Indexed by (field, value, num) for lookups and by (field, num)
 *   for numeric ranges.
 * - `vals`: one row per (field id, value id, document), all integers, keyed in that order for filters
 *   and facets, and indexed by document (`vals_by_doc`, about 100 bytes an aspect) for sort keys, which
 *   read each match's value of a field (sqlite-page-rows.ts). The writer does not need it: it finds a
 *   document's rows by deriving them from its stored fields (derived-rows.ts).
 *
 * Before, `vals` spelled out entity type, field and value in each row and again in its index, with the
 * document's `removed` copied in: 690 bytes per aspect written at 100,000 datasets, most of it the same
 * few dozen strings (`false`, platform and tag urns, the field names). Removed documents are told by
 * `docs.removed` (and the forward index's status) instead.
 */
export function migrateKeyedValues(db: Database.Database, logger?: ConversionLogger): void {
  const oldLayout = db
    .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('vals')")
    .all()
    .some((c) => c.name === 'entity_type');
  if (oldLayout) convertKeyedValues(db, logger);
  else createKeyedValueTables(db);
}

function createKeyedValueTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS val_fields (
      id INTEGER PRIMARY KEY,
      entity_type TEXT NOT NULL,
      field TEXT NOT NULL,
      UNIQUE (entity_type, field)
    );
    CREATE TABLE IF NOT EXISTS val_values (
      id INTEGER PRIMARY KEY,
      field INTEGER NOT NULL,
      value TEXT NOT NULL,
      num REAL
    );
    -- UNIQUE holds for numbers; two text rows (num NULL) of one value are kept out by the writer, which
    -- looks a value up before adding it, inside its write transaction.
    CREATE UNIQUE INDEX IF NOT EXISTS val_values_by_value ON val_values (field, value, num);
    CREATE INDEX IF NOT EXISTS val_values_by_num ON val_values (field, num) WHERE num IS NOT NULL;
    CREATE TABLE IF NOT EXISTS vals (
      field INTEGER NOT NULL,
      value INTEGER NOT NULL,
      doc INTEGER NOT NULL,
      PRIMARY KEY (field, value, doc)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS vals_by_doc ON vals (doc, field, value);
  `);
}

/**
 * Converts a file whose `vals` rows hold their texts (see above) in one write transaction: the
 * dictionaries are filled from the distinct pairs and values, the rows rewritten as ids, the old table
 * dropped with its indexes. A crash leaves the file as it was; the next open converts it again.
 */
function convertKeyedValues(db: Database.Database, logger?: ConversionLogger): void {
  const started = Date.now();
  const rows = db.prepare<[], number>('SELECT COUNT(*) FROM vals').pluck().get() ?? 0;
  logger?.info({ rows }, 'converting the search file: keyed values move to field and value ids');
  db.transaction(() => {
    // Its indexes (vals_by_value, vals_by_num) follow it, and go when it is dropped.
    db.exec('ALTER TABLE vals RENAME TO vals_text');
    createKeyedValueTables(db);
    db.exec(`
      INSERT OR IGNORE INTO val_fields (entity_type, field)
        SELECT DISTINCT entity_type, field FROM vals_text ORDER BY entity_type, field;
      INSERT INTO val_values (field, value, num)
        SELECT DISTINCT f.id, v.value, v.num FROM vals_text v
        JOIN val_fields f ON f.entity_type = v.entity_type AND f.field = v.field
        ORDER BY f.id, v.value;
      INSERT INTO vals (field, value, doc)
        SELECT f.id, x.id, v.doc FROM vals_text v
        JOIN val_fields f ON f.entity_type = v.entity_type AND f.field = v.field
        JOIN val_values x ON x.field = f.id AND x.value = v.value AND x.num IS v.num;
      DROP TABLE vals_text;
    `);
  }).immediate();
  logger?.info({ rows, ms: Date.now() - started }, 'search file converted: keyed values');
}

/** The id of an (entity type, field) pair in SQL, bound as two parameters; NULL (no rows) when unknown. */
export const FIELD_ID_SQL = '(SELECT id FROM val_fields WHERE entity_type = ? AND field = ?)';
