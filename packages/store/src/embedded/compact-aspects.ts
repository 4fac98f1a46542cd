import type Database from 'better-sqlite3';
import { LAST_OBSERVED_OF, RUN_ID_OF } from './run-columns.js';
import { encodeJson } from './stored-json.js';

/** The SQL function through which schema step 4 encodes the JSON already stored (stored-json.ts). */
const ENCODE_JSON_FUNCTION = 'catalog_encode_json';

/**
 * Registers ENCODE_JSON_FUNCTION on the connection: stored-json.ts's encodeJson, for the rows a
 * migration rewrites inside SQLite. Only migrations call it, so no index or view of the file needs it.
 */
export function registerEncodeJson(db: Database.Database): void {
  db.function(ENCODE_JSON_FUNCTION, { deterministic: true }, (text: unknown): unknown =>
    // NULL stays NULL; a value already deflated (a BLOB) is kept as it is, never encoded as if text.
    // A text already substituted is deflated whole (it holds token characters), which reads back.
    typeof text === 'string' ? encodeJson(text) : text,
  );
}

/**
 * Schema step 4, which makes the file far smaller per aspect (see the commit that added it for the
 * bench:search numbers):
 *
 * - `aspects` becomes WITHOUT ROWID, keyed by (urn, aspect, version): the table is its own key index,
 *   where a rowid table kept a second copy of every URN and aspect name in the key's autoindex.
 * - metadata and system_metadata hold encoded JSON (see stored-json.ts): long values deflated (a
 *   schema about 10 times smaller), short ones and system metadata with common texts substituted
 *   (system metadata about 3 times smaller). So do removed_aspects and the request records.
 * - The run index keys real columns, run_id and last_observed, instead of json_extract over
 *   system_metadata, which SQLite cannot read once encoded (so RUN_ID_SQL and LAST_OBSERVED_SQL,
 *   which step 2's index keyed, are gone). They are set on version 0 only (the index is on version 0
 *   only) from the same json_extract as before, so every row keeps its run; the default run is NULL,
 *   which the index stores in one byte where it stored 'no-run-id-provided'.
 * - aspects_latest, (urn, aspect) of version 0, is dropped: the table's own key serves what it did.
 *
 * The rebuild copies every row in key order (the old key index gives that order, so the new table is
 * written front to back) in the migration's one transaction: a crash leaves the file at the schema it had,
 * whole, and the next open starts over. It takes time in proportion to the rows, and the WAL grows to
 * about the new table's size until the commit is checkpointed. The freed pages of the old table are
 * given back by vacuumAfterCompaction, once the migration has committed.
 */
export function compactAspectsSql(): string {
  return `
    CREATE TABLE aspects_compact (
      urn TEXT NOT NULL,
      aspect TEXT NOT NULL,
      version INTEGER NOT NULL,
      -- JSON text, substituted (TEXT) or deflated (BLOB): see stored-json.ts.
      metadata BLOB NOT NULL,
      system_metadata BLOB,
      created_on INTEGER NOT NULL,
      created_by TEXT NOT NULL,
      created_for TEXT,
      created_message TEXT,
      -- Of version 0 only (NULL on history rows), for the run index: system_metadata's runId as
      -- json_extract gives it (no declared type, so a value keeps its JSON type), NULL for the default
      -- run; its lastObserved, or created_on when it has none.
      run_id,
      last_observed INTEGER,
      PRIMARY KEY (urn, aspect, version)
    ) WITHOUT ROWID;

    INSERT INTO aspects_compact (urn, aspect, version, metadata, system_metadata, created_on, created_by,
        created_for, created_message, run_id, last_observed)
      SELECT urn, aspect, version, ${ENCODE_JSON_FUNCTION}(metadata), ${ENCODE_JSON_FUNCTION}(system_metadata),
        created_on, created_by, created_for, created_message,
        CASE WHEN version = 0 THEN ${RUN_ID_OF('system_metadata')} END,
        CASE WHEN version = 0 THEN ${LAST_OBSERVED_OF('system_metadata', 'created_on')} END
      FROM aspects ORDER BY urn, aspect, version;

    -- Dropping the table drops its indices: aspects_latest, aspects_latest_by_aspect and the run index.
    DROP TABLE aspects;
    ALTER TABLE aspects_compact RENAME TO aspects;

    CREATE INDEX aspects_latest_by_aspect ON aspects (aspect, urn) WHERE version = 0;
    -- Plain columns, so the run listing reads this index alone (an index on expressions over them was
    -- read with a table lookup per row: 4.6 times slower over 800,000 rows).
    CREATE INDEX aspects_latest_by_run ON aspects (run_id, urn, aspect, last_observed) WHERE version = 0;

    -- What deletes removed is read back by request records only, and pruned with them; encoded too,
    -- as are the records (both at most the retention's worth of rows).
    UPDATE removed_aspects SET metadata = ${ENCODE_JSON_FUNCTION}(metadata),
      system_metadata = ${ENCODE_JSON_FUNCTION}(system_metadata);
    UPDATE applied_requests SET result = ${ENCODE_JSON_FUNCTION}(result);
  `;
}

/** Where vacuumAfterCompaction says what it does. */
export interface CompactionLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/**
 * Gives the pages step 4 freed back to the file system: the rebuilt table is written beside the old
 * one, and SQLite only reuses freed pages, it does not shrink the file. VACUUM writes the whole file
 * anew (through the WAL and a temporary file, each about the compacted file's size), in a transaction
 * of its own after the migration has committed: a crash or a failure here leaves a whole, migrated
 * file that is only larger than it needs to be, so a failure (another connection holding the file
 * past busy_timeout) is logged and the store opens regardless.
 */
export function vacuumAfterCompaction(db: Database.Database, logger: CompactionLogger | undefined): void {
  const freePages = db.pragma('freelist_count', { simple: true }) as number;
  if (freePages === 0) return;
  const started = performance.now();
  logger?.info({ freePages }, 'vacuuming the aspect store file after its compaction');
  try {
    db.exec('VACUUM');
    logger?.info(
      { ms: Math.round(performance.now() - started), pages: db.pragma('page_count', { simple: true }) },
      'vacuumed the aspect store file',
    );
  } catch (error) {
    logger?.warn(
      { err: error },
      'vacuum after compaction failed; the freed pages stay in the file for reuse',
    );
  }
}
