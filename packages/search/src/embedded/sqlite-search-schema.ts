import type Database from 'better-sqlite3';
import { migrateDerivedRows } from './derived-rows-schema.js';
import { migrateGraphEdges } from './graph-edges-schema.js';
import { migrateKeyedValues } from './keyed-values-schema.js';
import { seedStructuredPropertyMappings } from './sqlite-structured-property-mappings.js';
import { migrateBrowseMulti } from './browse-multi-path.js';
import { migrateBrowseCounts } from './browse-counts.js';
import { convertFtsTables, type ConversionLogger } from './text-index-conversion.js';
import { migrateTextIndexSchema } from './text-index-schema.js';

/**
 * Tables of the embedded read models, all in one SQLite file:
 * - `index_specs`: the EntityIndexSpec of each entity type and the full-text columns derived from it.
 * - `docs`: one row per entity document (the fields as JSON), by id (the text index's document ids).
 * - `vals`: one row per (field, distinct value, document), all ids: fields per entity type in
 *   `val_fields`, values (text, and `num` for numbers) in `val_values`; keyed from the field for
 *   filters, facets and colon queries (keyed-values-schema.ts; a file whose `vals` rows spell out
 *   their texts is converted at open).
 * - `doc_changes`: the ids of changed documents in commit order, trimmed to the newest; readers replay it
 *   to keep their in-memory facet indexes current (FacetForwardIndex).
 * - `browse`: one row per browse-path step (parent path, child segment, leaf or group), for browse;
 *   `multi` marks the rows of a document listed under several paths (browse-multi-path.ts).
 * - `browse_groups`, `browse_totals`: browse's counts per path, kept by triggers on `browse`
 *   (browse-counts.ts; a file made before them has them filled at open).
 * - `vals` and `browse` are derived from `docs` and `index_specs` alone: the writer finds a document's
 *   rows by deriving them again (derived-rows.ts), so `browse` has no index by document (`vals` keeps
 *   one for sort keys). `search_meta` records the
 *   derivation version they were written with; a file of another version has them rebuilt at open
 *   (derived-rows-schema.ts).
 * - `text_*`: the full-text index (text-index-schema.ts), which replaced one FTS5 table per entity type
 *   (`fts_<entityType>`; a file that has them is converted at open, text-index-conversion.ts).
 * - `structured_properties`: the structured property definitions view, by urn, findable by the field
 *   form of the qualified name (SearchIndex.putStructuredProperties).
 * - `retired_structured_properties`: hard-deleted properties whose field mappings may remain, by urn,
 *   findable by the field form of the qualified name (SearchIndex.deleteStructuredProperties).
 * - `structured_property_mappings`: the structured property fields each entity index maps, as OpenSearch
 *   mappings would (SqliteStructuredPropertyMappings); bookkeeping only, values are keyed regardless.
 * - `edges`: graph edges keyed by (source, aspect, relationship, target), indexed from the target, as
 *   ids: urns in `edge_urns`, aspect and relationship names and actors in `edge_names`
 *   (graph-edges-schema.ts; a file whose edges spell out their texts is converted at open).
 * - `timeseries`: time-series documents by id, indexed by (entity_type, aspect, urn, ts) for one
 *   entity's values and by (entity_type, aspect, ts, id) for a scan of an aspect; `run_id` (the
 *   systemMetadata.runId that wrote the document) is indexed for a rollback of a run.
 */
export function migrateSearchSchema(db: Database.Database, logger?: ConversionLogger): void {
  const mappingsExisted =
    db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'structured_property_mappings'")
      .get() !== undefined;
  db.exec(`
    CREATE TABLE IF NOT EXISTS index_specs (
      entity_type TEXT PRIMARY KEY,
      spec TEXT NOT NULL,
      fts_columns TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS docs (
      id INTEGER PRIMARY KEY,
      entity_type TEXT NOT NULL,
      urn TEXT NOT NULL,
      removed INTEGER NOT NULL,
      doc TEXT NOT NULL,
      UNIQUE (entity_type, urn)
    );
    CREATE INDEX IF NOT EXISTS docs_type_removed_urn ON docs (entity_type, removed, urn);
    CREATE TABLE IF NOT EXISTS doc_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      doc INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS browse (
      entity_type TEXT NOT NULL,
      parent TEXT NOT NULL,
      leaf INTEGER NOT NULL,
      segment TEXT NOT NULL,
      doc INTEGER NOT NULL,
      removed INTEGER NOT NULL,
      multi INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (entity_type, parent, leaf, segment, doc)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS structured_properties (
      urn TEXT PRIMARY KEY,
      normalized_name TEXT NOT NULL,
      definition TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS structured_properties_by_name ON structured_properties (normalized_name);
    CREATE TABLE IF NOT EXISTS retired_structured_properties (
      urn TEXT PRIMARY KEY,
      qualified_name TEXT NOT NULL,
      normalized_name TEXT NOT NULL,
      retired_at INTEGER NOT NULL,
      fields TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS retired_structured_properties_by_name
      ON retired_structured_properties (normalized_name);
    CREATE TABLE IF NOT EXISTS structured_property_mappings (
      entity_type TEXT NOT NULL,
      field TEXT NOT NULL,
      PRIMARY KEY (entity_type, field)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS timeseries (
      id TEXT PRIMARY KEY,
      entity_type TEXT NOT NULL,
      aspect TEXT NOT NULL,
      urn TEXT NOT NULL,
      ts INTEGER NOT NULL,
      value TEXT NOT NULL,
      system_metadata TEXT,
      run_id TEXT
    );
    CREATE INDEX IF NOT EXISTS timeseries_lookup ON timeseries (entity_type, aspect, urn, ts);
    CREATE INDEX IF NOT EXISTS timeseries_scan ON timeseries (entity_type, aspect, ts, id);
  `);
  migrateTimeseriesRunId(db);
  migrateBrowseMulti(db, logger);
  migrateBrowseCounts(db, logger);
  // Before the mappings are seeded: that reads `vals`.
  migrateKeyedValues(db, logger);
  migrateDerivedRows(db, logger);
  migrateGraphEdges(db, logger);
  if (!mappingsExisted) seedStructuredPropertyMappings(db);
  migrateTextIndexSchema(db);
  convertFtsTables(db, logger);
}

/**
 * `timeseries.run_id`, added after the table: a file made before it gets the column, filled from each
 * document's systemMetadata.runId (a non-empty string, else NULL), then the index on it.
 */
function migrateTimeseriesRunId(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(timeseries)').all();
  if (!columns.some((c) => c.name === 'run_id')) {
    db.transaction(() => {
      db.exec('ALTER TABLE timeseries ADD COLUMN run_id TEXT');
      db.exec(`
        UPDATE timeseries SET run_id = json_extract(system_metadata, '$.runId')
        WHERE system_metadata IS NOT NULL AND json_valid(system_metadata)
          AND json_type(system_metadata, '$.runId') = 'text'
          AND json_extract(system_metadata, '$.runId') <> ''
      `);
    })();
  }
  db.exec(`
    CREATE INDEX IF NOT EXISTS timeseries_by_run
      ON timeseries (run_id, entity_type, aspect, urn) WHERE run_id IS NOT NULL
  `);
}

const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * The FTS5 table an entity type had before the text index (dropped when a file is converted, or its
 * index deleted); entity names are identifiers, anything else is refused.
 */
export function ftsTableOf(entityType: string): string {
  if (!SAFE_NAME.test(entityType))
    throw new Error(`Entity type ${JSON.stringify(entityType)} is not an identifier`);
  return `fts_${entityType}`;
}
