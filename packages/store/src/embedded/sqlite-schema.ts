import type Database from 'better-sqlite3';
import { compactAspectsSql, registerEncodeJson } from './compact-aspects.js';
import { keyByIdsSql, registerRequestKey } from './keyed-by-ids.js';

/**
 * One step of the file layout: SQL, and for a step that needs the codec of stored JSON (which
 * SQLite does not have), a function registered on the connection first.
 */
interface Migration {
  readonly version: number;
  readonly sql: string;
  readonly prepare?: (db: Database.Database) => void;
}

/**
 * Schema migrations of the embedded aspect store, applied in order at open. Each step runs once,
 * recorded in `schema_version`, so the file layout can evolve without a separate tool. Append new
 * steps; never edit one that has shipped.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      -- Same layout as the ecosystem's metadata_aspect_v2, so its mental model (and restore order) carries over.
      CREATE TABLE aspects (
        urn TEXT NOT NULL,
        aspect TEXT NOT NULL,
        version INTEGER NOT NULL,
        metadata TEXT NOT NULL,
        system_metadata TEXT,
        created_on INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_for TEXT,
        created_message TEXT,
        PRIMARY KEY (urn, aspect, version)
      );
      -- Partial indices over version 0 only: scans, counts and latest reads never touch history rows.
      CREATE INDEX aspects_latest ON aspects (urn, aspect) WHERE version = 0;
      CREATE INDEX aspects_latest_by_aspect ON aspects (aspect, urn) WHERE version = 0;

      -- No index on applied_at: rows are appended in time order, so pruning walks the oldest rowids.
      CREATE TABLE applied_requests (
        request_id TEXT PRIMARY KEY,
        result TEXT NOT NULL,
        applied_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    // Ingestion runs (the ecosystem's /runs): the latest rows of a run by urn and aspect, and the run
    // listing, read this index alone. The expressions must match RUN_ID_SQL and LAST_OBSERVED_SQL.
    sql: `
      CREATE INDEX aspects_latest_by_run ON aspects (
        coalesce(json_extract(system_metadata, '$.runId'), 'no-run-id-provided'),
        urn,
        aspect,
        coalesce(json_extract(system_metadata, '$.lastObserved'), created_on)
      ) WHERE version = 0;
    `,
  },
  {
    version: 3,
    // Request records name the rows of their result instead of holding copies (format 2, see
    // recorded-result.ts); the records already stored keep format 1, the whole result, and stay
    // readable as they are. What a delete removes is kept in removed_aspects while a record may still
    // name it (see SqliteAspectStore.pruneRequests), so a replay rebuilds exactly what was answered.
    sql: `
      ALTER TABLE applied_requests ADD COLUMN format INTEGER NOT NULL DEFAULT 1;

      -- No index on removed_at: rows are appended in time order, so pruning walks the oldest rowids.
      CREATE TABLE removed_aspects (
        urn TEXT NOT NULL,
        aspect TEXT NOT NULL,
        version INTEGER NOT NULL,
        metadata TEXT NOT NULL,
        system_metadata TEXT,
        created_on INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_for TEXT,
        created_message TEXT,
        removed_at INTEGER NOT NULL
      );
      CREATE INDEX removed_aspects_by_aspect ON removed_aspects (urn, aspect);
    `,
  },
  {
    version: 4,
    // The aspects table rebuilt smaller (see compact-aspects.ts): WITHOUT ROWID, its JSON encoded
    // (stored-json.ts), the run id and lastObserved in columns of their own, no aspects_latest index.
    sql: compactAspectsSql(),
    prepare: registerEncodeJson,
  },
  {
    version: 5,
    // URNs, aspect names, actors and run ids in dictionaries, aspects and its indices keyed by their
    // integer ids; request ids stored compactly, and new request records name their rows by those ids
    // (format 3, packed-record.ts), so URN ids are never handed out again (see keyed-by-ids.ts).
    sql: keyByIdsSql(),
    prepare: registerRequestKey,
  },
];

/** The newest layout this build knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Where migrateSchema says what it does: a step can take minutes on a large file. */
export interface MigrationLogger {
  info(obj: object, msg?: string): void;
}

/**
 * Brings the file to SCHEMA_VERSION (or, for tests that make a file as an older build left it, to
 * `target`), all steps in one transaction: a crash leaves the file as it was. Refuses a file written
 * by a newer build rather than guessing at a layout it does not know. Returns the version the file
 * had (0 for a new file) and the versions applied.
 */
export function migrateSchema(
  db: Database.Database,
  now: number,
  target = SCHEMA_VERSION,
  logger?: MigrationLogger,
): { readonly from: number; readonly applied: readonly number[] } {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
  );
  const migrate = db.transaction(() => {
    const row = db.prepare('SELECT MAX(version) AS version FROM schema_version').get() as
      { version: number | null } | undefined;
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `aspect store file has schema version ${current}, newer than this build supports (${SCHEMA_VERSION})`,
      );
    }
    const record = db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)');
    const applied: number[] = [];
    for (const step of MIGRATIONS) {
      if (step.version <= current || step.version > target) continue;
      // A new file takes every step at once, in no time: only an existing file's steps are news.
      const log = current > 0 ? logger : undefined;
      const started = performance.now();
      log?.info({ from: current, step: step.version }, 'migrating the aspect store file');
      step.prepare?.(db);
      db.exec(step.sql);
      record.run(step.version, now);
      applied.push(step.version);
      log?.info(
        { step: step.version, ms: Math.round(performance.now() - started) },
        'migration step done (committed with the last one)',
      );
    }
    return { from: current, applied };
  });
  // IMMEDIATE: two processes opening a fresh file at once must not both run step 1.
  return migrate.immediate();
}
