import type Database from 'better-sqlite3';
import type { ConversionLogger } from './text-index-conversion.js';

/**
 * The graph edges, in three tables:
 * - `edge_urns`: one id per urn that is the source or target of an edge. The writer deletes an id once
 *   no edge names it (SqliteGraphIndex), so the table holds the endpoints there are.
 * - `edge_names`: one id per aspect name, relationship name and created actor urn. These are few (the
 *   model's aspects and relationships, the people and services that write) and never deleted, so an id
 *   a connection has read stays valid.
 * - `edges`: (source, aspect, relationship, target) ids as the key, with created_at and the created
 *   actor's id; indexed from the target (`edges_by_target`).
 *
 * Before, each edge spelled out its urns, aspect and relationship in its row and again in the index:
 * 200 bytes per aspect written at 100,000 datasets, a dataset's own urn (80 characters) three times per
 * edge it declares.
 */
export function migrateGraphEdges(db: Database.Database, logger?: ConversionLogger): void {
  const source = db
    .prepare<[], { type: string }>("SELECT type FROM pragma_table_info('edges') WHERE name = 'source'")
    .get();
  if (source?.type.toUpperCase() === 'TEXT') convertGraphEdges(db, logger);
  else createGraphEdgeTables(db);
}

function createGraphEdgeTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS edge_urns (
      id INTEGER PRIMARY KEY,
      urn TEXT NOT NULL UNIQUE
    );
    CREATE TABLE IF NOT EXISTS edge_names (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE IF NOT EXISTS edges (
      source INTEGER NOT NULL,
      aspect INTEGER NOT NULL,
      relationship INTEGER NOT NULL,
      target INTEGER NOT NULL,
      created_at INTEGER,
      created_actor INTEGER,
      PRIMARY KEY (source, aspect, relationship, target)
    ) WITHOUT ROWID;
    -- Reads from the source use the primary key: an entity's outgoing edges are few, and sorting them
    -- cost less than an index repeating every edge. Files made before keep no such index either.
    DROP INDEX IF EXISTS edges_by_source;
    CREATE INDEX IF NOT EXISTS edges_by_target ON edges (target, relationship, source);
  `);
}

/**
 * Converts a file whose `edges` rows hold their urns and names as text, in one write transaction: the
 * dictionaries are filled from the distinct texts, the rows rewritten as ids, the old table dropped.
 * A crash leaves the file as it was; the next open converts it again.
 */
function convertGraphEdges(db: Database.Database, logger?: ConversionLogger): void {
  const started = Date.now();
  const edges = db.prepare<[], number>('SELECT COUNT(*) FROM edges').pluck().get() ?? 0;
  logger?.info({ edges }, 'converting the search file: graph edges move to urn and name ids');
  db.transaction(() => {
    db.exec(`
      ALTER TABLE edges RENAME TO edges_text;
      -- The new table's index takes its name.
      DROP INDEX IF EXISTS edges_by_target;
    `);
    createGraphEdgeTables(db);
    db.exec(`
      INSERT INTO edge_urns (urn) SELECT source FROM edges_text UNION SELECT target FROM edges_text;
      INSERT INTO edge_names (name)
        SELECT aspect FROM edges_text UNION SELECT relationship FROM edges_text
        UNION SELECT created_actor FROM edges_text WHERE created_actor IS NOT NULL;
      INSERT INTO edges (source, aspect, relationship, target, created_at, created_actor)
        SELECT s.id, a.id, r.id, t.id, e.created_at, c.id FROM edges_text e
        JOIN edge_urns s ON s.urn = e.source
        JOIN edge_names a ON a.name = e.aspect
        JOIN edge_names r ON r.name = e.relationship
        JOIN edge_urns t ON t.urn = e.target
        LEFT JOIN edge_names c ON c.name = e.created_actor;
      DROP TABLE edges_text;
    `);
  }).immediate();
  logger?.info({ edges, ms: Date.now() - started }, 'search file converted: graph edges');
}
