import type Database from 'better-sqlite3';
import type { EntityIndexSpec } from '../port.js';
import { indexedEntity } from './indexed-entity.js';
import { TextIndexWriter } from './text-index-writer.js';

/** Where the conversion says what it does (a pino logger fits). */
export interface ConversionLogger {
  info(context: Record<string, unknown>, message: string): void;
}

/**
 * Converts a search file made when full text lived in FTS5 tables (`fts_<entityType>`): each entity
 * type that has one is indexed into the text index from its documents, and the FTS5 table dropped,
 * in one write transaction (a crash leaves the file as it was; the next open converts it again). It
 * reads every document of the type once: about a minute per million datasets.
 */
export function convertFtsTables(db: Database.Database, logger?: ConversionLogger): void {
  const legacy = db
    .prepare<[], { spec: string }>(
      `SELECT s.spec FROM index_specs s
       WHERE EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'table' AND m.name = 'fts_' || s.entity_type)`,
    )
    .all();
  if (legacy.length === 0) return;
  const started = Date.now();
  const entityTypes = legacy.map((row) => (JSON.parse(row.spec) as EntityIndexSpec).entityType);
  const documents = db.prepare<[], number>('SELECT COUNT(*) FROM docs').pluck().get() ?? 0;
  logger?.info(
    { entityTypes, documents },
    'converting the search file: full text moves from FTS5 tables to the text index',
  );
  db.transaction(() => {
    const writer = new TextIndexWriter(db);
    for (const row of legacy) {
      const entity = indexedEntity(JSON.parse(row.spec) as EntityIndexSpec);
      writer.rebuild(entity);
      db.exec(`DROP TABLE IF EXISTS "fts_${entity.spec.entityType.replaceAll('"', '""')}"`);
    }
  }).immediate();
  logger?.info({ entityTypes, documents, ms: Date.now() - started }, 'search file converted');
}
