import type Database from 'better-sqlite3';
import { requestKey } from './request-key.js';

/** The SQL function through which schema step 5 keys the request ids already stored (request-key.ts). */
const REQUEST_KEY_FUNCTION = 'catalog_request_key';

/** Registers REQUEST_KEY_FUNCTION, request-key.ts's codec, for step 5's rebuild of the records. */
export function registerRequestKey(db: Database.Database): void {
  db.function(REQUEST_KEY_FUNCTION, { deterministic: true }, (id: unknown): unknown =>
    typeof id === 'string' ? requestKey(id) : id,
  );
}

/**
 * Schema step 5: every URN, aspect name, actor and run id is stored once, in a dictionary, and the
 * rows and indices of `aspects` key small integers. A URN (70 to 90 bytes) was stored in each row
 * and in each entry of both indices, about 1.6 rows per aspect written; aspect names, the actor of
 * the audit stamp and the run id repeated likewise.
 *
 * - urns, aspect_names, actors, runs: an integer id (the rowid) and the text, unique. A dictionary
 *   row costs the text twice (table and unique index), once per entity, name, actor or run.
 * - aspects: keyed by (urn_id, aspect_id, version), WITHOUT ROWID as in step 4; created_by and run_id
 *   hold ids. run_id is NULL for the default run, as before; a run's text keeps its JSON type.
 * - Ids do not follow URN order (a new entity gets the next id), so reads in URN order walk the
 *   urns' unique index (see sqlite-aspect-store.ts). The migration numbers URNs in URN order, which
 *   keeps the rebuilt table in the order the old one had.
 * - An entity's URN row is deleted with its last aspect (see SqliteStatements.forgetUrn), so scans do
 *   not walk entities that are gone. Names, actors and runs are never deleted: there are few, and a
 *   run no row carries any more is not listed (the listing reads `aspects`).
 * - Request records name the URN and aspect names of their rows by id (format PACKED_REFERENCES,
 *   packed-record.ts), so an id must name the same text as long as a record may hold it. URN ids are
 *   AUTOINCREMENT, never handed out again (a plain rowid table gives the largest id again once its
 *   row is deleted, and a record would then name another entity), and a deleted URN row is kept in
 *   removed_urns, as removed_aspects keeps the rows, until no record left can name it (see
 *   SqliteAspectStore.pruneRequests): a record names only ids that existed when it was applied.
 * - applied_requests keys request-key.ts's compact form of the id, with a unique index on it; it
 *   stays a rowid table, so pruning still walks the oldest rowids. Records already stored keep their
 *   format (whole results, or row references in JSON) and stay readable.
 *
 * As step 4, the rebuild runs in the migration's transaction, and the freed pages are given back by
 * vacuumAfterCompaction once it has committed.
 */
export function keyByIdsSql(): string {
  return `
    -- AUTOINCREMENT: an id is never handed out again, even after its row is deleted.
    CREATE TABLE urns (id INTEGER PRIMARY KEY AUTOINCREMENT, urn TEXT NOT NULL UNIQUE);
    CREATE TABLE removed_urns (id INTEGER PRIMARY KEY, urn TEXT NOT NULL, removed_at INTEGER NOT NULL);
    CREATE INDEX removed_urns_by_time ON removed_urns (removed_at);
    CREATE TABLE aspect_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE actors (id INTEGER PRIMARY KEY, actor TEXT NOT NULL UNIQUE);
    -- No declared type: a run id keeps the JSON type json_extract gave it (see run-columns.ts).
    CREATE TABLE runs (id INTEGER PRIMARY KEY, run_id NOT NULL UNIQUE);

    INSERT INTO urns (urn) SELECT DISTINCT urn FROM aspects ORDER BY urn;
    INSERT INTO aspect_names (name) SELECT DISTINCT aspect FROM aspects ORDER BY aspect;
    INSERT INTO actors (actor) SELECT DISTINCT created_by FROM aspects ORDER BY created_by;
    INSERT INTO runs (run_id) SELECT DISTINCT run_id FROM aspects WHERE run_id IS NOT NULL;

    CREATE TABLE aspects_by_id (
      urn_id INTEGER NOT NULL,
      aspect_id INTEGER NOT NULL,
      version INTEGER NOT NULL,
      -- JSON text, substituted (TEXT) or deflated (BLOB): see stored-json.ts.
      metadata BLOB NOT NULL,
      system_metadata BLOB,
      created_on INTEGER NOT NULL,
      -- actors.id
      created_by INTEGER NOT NULL,
      created_for TEXT,
      created_message TEXT,
      -- Of version 0 only (NULL on history rows), for the run index: runs.id of system_metadata's
      -- runId, NULL for the default run; its lastObserved, or created_on when it has none.
      run_id INTEGER,
      last_observed INTEGER,
      PRIMARY KEY (urn_id, aspect_id, version)
    ) WITHOUT ROWID;

    -- Both joins on a run id compare values of no affinity, so 1 and '1' stay two runs, as before.
    INSERT INTO aspects_by_id (urn_id, aspect_id, version, metadata, system_metadata, created_on,
        created_by, created_for, created_message, run_id, last_observed)
      SELECT u.id, n.id, a.version, a.metadata, a.system_metadata, a.created_on, c.id, a.created_for,
        a.created_message, r.id, a.last_observed
      FROM aspects a
        JOIN urns u ON u.urn = a.urn
        JOIN aspect_names n ON n.name = a.aspect
        JOIN actors c ON c.actor = a.created_by
        LEFT JOIN runs r ON r.run_id = a.run_id
      ORDER BY u.id, n.id, a.version;

    -- Dropping the table drops its indices.
    DROP TABLE aspects;
    ALTER TABLE aspects_by_id RENAME TO aspects;

    CREATE INDEX aspects_latest_by_aspect ON aspects (aspect_id, urn_id) WHERE version = 0;
    CREATE INDEX aspects_latest_by_run ON aspects (run_id, urn_id, aspect_id, last_observed)
      WHERE version = 0;

    CREATE TABLE applied_requests_by_key (
      -- request-key.ts: TEXT, or a BLOB for an id that begins with a UUID.
      request_id NOT NULL,
      result BLOB NOT NULL,
      format INTEGER NOT NULL,
      applied_at INTEGER NOT NULL
    );
    INSERT INTO applied_requests_by_key (rowid, request_id, result, format, applied_at)
      SELECT rowid, ${REQUEST_KEY_FUNCTION}(request_id), result, format, applied_at
      FROM applied_requests ORDER BY rowid;
    DROP TABLE applied_requests;
    ALTER TABLE applied_requests_by_key RENAME TO applied_requests;
    CREATE UNIQUE INDEX applied_requests_by_id ON applied_requests (request_id);
  `;
}

/**
 * The columns of a row (aspect-row.ts's ASPECT_COLUMNS, under the same names) over ROW_JOINS, or a
 * join that names the tables alike: a for aspects, u for urns, n for aspect_names, c for actors.
 */
export const JOINED_COLUMNS = `u.urn AS urn, n.name AS aspect, a.version AS version, a.metadata AS metadata,
  a.system_metadata AS system_metadata, a.created_on AS created_on, c.actor AS created_by,
  a.created_for AS created_for, a.created_message AS created_message`;

/** An aspects row with its URN, aspect name and actor, for a query that filters on URN and name. */
export const ROW_JOINS = `urns u JOIN aspects a ON a.urn_id = u.id
  JOIN aspect_names n ON n.id = a.aspect_id JOIN actors c ON c.id = a.created_by`;

/** The id of a URN or aspect name bound as `param`, as a scalar subquery (NULL when unknown). */
export const URN_ID = (param: string): string => `(SELECT id FROM urns WHERE urn = ${param})`;
export const ASPECT_ID = (param: string): string => `(SELECT id FROM aspect_names WHERE name = ${param})`;
