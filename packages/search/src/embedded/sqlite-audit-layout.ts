import type Database from 'better-sqlite3';
import type { AuditEvent } from '../audit/audit-index.js';
import { writeTransaction } from './write-transaction.js';

export const AUDIT_TABLE_PREFIX = 'audit_event_';
export const AUDIT_TABLE_NAME = /^audit_event_(\d{4})_(\d{2})_(\d{2})$/;

/** The day's term table: each string its rows repeat (event type, actor, aspect, …) once, by code. */
export function termsTableOf(table: string): string {
  return `${table}_terms`;
}

/**
 * Creates a day's tables when missing. Rows are keyed by an integer `seq` in write order, so the
 * indices carry four bytes or less per row instead of the event id; `id_hash` finds an id again for
 * idempotent writes. The (ts) and (filter field, ts) indices give the read order up to ties of equal
 * timestamps, which the reads order by id themselves. A day's terms go with its table when retention
 * drops it. `id`, `entity_urn`, `trace_id` and `raw` hold TEXT, BLOB or INTEGER (see AuditRow), so
 * they are declared without a type: no affinity converts what is stored.
 */
export function createAuditPartition(db: Database.Database, table: string): void {
  const terms = termsTableOf(table);
  db.exec(
    `CREATE TABLE IF NOT EXISTS "${table}" (
       seq INTEGER PRIMARY KEY,
       id NOT NULL,
       id_hash INTEGER NOT NULL,
       ts INTEGER NOT NULL,
       event_type INTEGER NOT NULL,
       actor INTEGER NOT NULL,
       entity_type INTEGER,
       aspect INTEGER,
       entity_urn,
       source_ip TEXT,
       client INTEGER,
       trace_id,
       raw NOT NULL
     );
     CREATE TABLE IF NOT EXISTS "${terms}" (code INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);
     CREATE INDEX IF NOT EXISTS "${table}_id" ON "${table}" (id_hash);
     CREATE INDEX IF NOT EXISTS "${table}_ts" ON "${table}" (ts);
     CREATE INDEX IF NOT EXISTS "${table}_type" ON "${table}" (event_type, ts);
     CREATE INDEX IF NOT EXISTS "${table}_actor" ON "${table}" (actor, ts);
     CREATE INDEX IF NOT EXISTS "${table}_entity" ON "${table}" (entity_type, ts);
     CREATE INDEX IF NOT EXISTS "${table}_aspect" ON "${table}" (aspect, ts);`,
  );
}

/** The indices of the first layout (the event id as TEXT primary key, the whole event as JSON `doc`). */
const LEGACY_INDEX_SUFFIXES = ['_ts', '_type', '_actor', '_entity', '_aspect'];
/** Rows read from a legacy table per step of its migration. */
const MIGRATION_STEP = 1_000;

/** Day tables still in the first layout. */
export function legacyAuditPartitions(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>(
      `SELECT m.name FROM sqlite_master AS m
       WHERE m.type = 'table' AND m.name GLOB '${AUDIT_TABLE_PREFIX}[0-9]*'
         AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'doc')`,
    )
    .all()
    .map((row) => row.name)
    .filter((name) => AUDIT_TABLE_NAME.test(name));
}

/**
 * Rewrites every day table of the first layout into the present one, all in one transaction (a crash
 * leaves the file as it was), through `writeRows` so each event is stored as a write would store it.
 * Returns the tables it rewrote; none when another connection did it first.
 */
export function migrateLegacyAuditPartitions(
  db: Database.Database,
  writeRows: (table: string, events: readonly AuditEvent[]) => void,
): string[] {
  if (legacyAuditPartitions(db).length === 0) return [];
  return writeTransaction(db, () => {
    const tables = legacyAuditPartitions(db);
    for (const table of tables) {
      const legacy = `${table}_legacy`;
      db.exec(`ALTER TABLE "${table}" RENAME TO "${legacy}"`);
      for (const suffix of LEGACY_INDEX_SUFFIXES) db.exec(`DROP INDEX IF EXISTS "${table}${suffix}"`);
      createAuditPartition(db, table);
      const read = db.prepare<[number, number], { r: number; doc: string }>(
        `SELECT rowid AS r, doc FROM "${legacy}" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      );
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = read.all(after, MIGRATION_STEP);
        if (rows.length === 0) break;
        writeRows(
          table,
          rows.map((row) => JSON.parse(row.doc) as AuditEvent),
        );
        after = rows[rows.length - 1]!.r;
      }
      db.exec(`DROP TABLE "${legacy}"`);
    }
    return tables;
  })();
}
