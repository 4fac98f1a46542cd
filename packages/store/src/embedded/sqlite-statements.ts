import type Database from 'better-sqlite3';
import { ASPECT_COLUMNS, type EncodedAspectRow } from './aspect-row.js';
import { LAST_OBSERVED_OF, RUN_ID_OF } from './run-columns.js';
import type { StoredJson } from './stored-json.js';

/**
 * A version 0 as written: its JSON columns as stored (see stored-json.ts), and its system metadata's
 * text too, from which SQLite takes the run columns (with the json_extract the run index was built on
 * before the file stored system metadata deflated, so a row keys the same run as it did then).
 */
export interface LatestValues {
  readonly urn: string;
  readonly aspect: string;
  readonly metadata: StoredJson;
  readonly systemMetadata: StoredJson | null;
  readonly systemText: string | null;
  readonly createdOn: number;
  readonly createdBy: string;
  readonly createdFor: string | null;
  readonly createdMessage: string | null;
}

/**
 * Every fixed-shape statement of the store, prepared once per connection: preparing costs more than
 * running a point query, and the write path runs several per aspect write.
 */
export interface SqliteStatements {
  /** `result` as stored-json.ts keeps it (records written before schema 4 are plain text). */
  readonly findRequest: Database.Statement<[string], { result: StoredJson; format: number }>;
  readonly recordRequest: Database.Statement<[string, StoredJson, number, number]>;
  readonly forgetRequest: Database.Statement<[string]>;
  readonly pruneRequests: Database.Statement<[number, number]>;
  readonly countRequests: Database.Statement<[], { count: number }>;
  readonly pruneOldestRequests: Database.Statement<[number]>;
  readonly oldestRequest: Database.Statement<[], { applied_at: number }>;
  readonly keepRemovedAspect: Database.Statement<[number, string, string]>;
  readonly keepRemovedEntity: Database.Statement<[number, string]>;
  readonly removedVersions: Database.Statement<[string, string], EncodedAspectRow>;
  readonly pruneRemoved: Database.Statement<[number, number]>;
  readonly getVersion: Database.Statement<[string, string, number], EncodedAspectRow>;
  readonly hasLatest: Database.Statement<[string, string], { found: number }>;
  readonly maxVersion: Database.Statement<[string, string], { max: number | null }>;
  readonly copyLatestToHistory: Database.Statement<[number, string, string]>;
  readonly replaceLatest: Database.Statement<[LatestValues]>;
  readonly insertLatest: Database.Statement<[LatestValues]>;
  readonly updateSystemMetadata: Database.Statement<
    [{ systemMetadata: StoredJson | null; systemText: string | null; urn: string; aspect: string }]
  >;
  readonly deleteAspect: Database.Statement<[string, string]>;
  readonly latestOfEntity: Database.Statement<[string], EncodedAspectRow>;
  readonly deleteEntity: Database.Statement<[string]>;
  readonly listVersions: Database.Statement<[string, string], EncodedAspectRow>;
}

// A SET sees the row's old values: replaceLatest writes created_on too, so it takes @createdOn.
const RUN_COLUMNS_SET = `run_id = ${RUN_ID_OF('@systemText')},
  last_observed = ${LAST_OBSERVED_OF('@systemText', '@createdOn')}`;
const RUN_COLUMNS_OBSERVED_SET = `run_id = ${RUN_ID_OF('@systemText')},
  last_observed = ${LAST_OBSERVED_OF('@systemText', 'created_on')}`;

export function prepareStatements(db: Database.Database): SqliteStatements {
  return {
    findRequest: db.prepare('SELECT result, format FROM applied_requests WHERE request_id = ?'),
    recordRequest: db.prepare(
      'INSERT INTO applied_requests (request_id, result, format, applied_at) VALUES (?, ?, ?, ?)',
    ),
    forgetRequest: db.prepare('DELETE FROM applied_requests WHERE request_id = ?'),
    // The oldest rows by rowid (insertion order), bounded: plain DELETE ... LIMIT needs a compile option
    // that SQLite builds lack. A clock that stepped back only makes a row live a little longer.
    pruneRequests: db.prepare(
      `DELETE FROM applied_requests WHERE applied_at < ?
         AND rowid IN (SELECT rowid FROM applied_requests ORDER BY rowid LIMIT ?)`,
    ),
    // The row bound: count(*) walks the smallest index, once per prune.
    countRequests: db.prepare('SELECT count(*) AS count FROM applied_requests'),
    pruneOldestRequests: db.prepare(
      'DELETE FROM applied_requests WHERE rowid IN (SELECT rowid FROM applied_requests ORDER BY rowid LIMIT ?)',
    ),
    oldestRequest: db.prepare('SELECT applied_at FROM applied_requests ORDER BY rowid LIMIT 1'),
    // Every version of what a delete removes, kept for the request records that name them.
    keepRemovedAspect: db.prepare(
      `INSERT INTO removed_aspects (${ASPECT_COLUMNS}, removed_at)
       SELECT ${ASPECT_COLUMNS}, ? FROM aspects WHERE urn = ? AND aspect = ?`,
    ),
    keepRemovedEntity: db.prepare(
      `INSERT INTO removed_aspects (${ASPECT_COLUMNS}, removed_at)
       SELECT ${ASPECT_COLUMNS}, ? FROM aspects WHERE urn = ?`,
    ),
    // Newest removal first.
    removedVersions: db.prepare(
      `SELECT ${ASPECT_COLUMNS} FROM removed_aspects WHERE urn = ? AND aspect = ? ORDER BY rowid DESC`,
    ),
    pruneRemoved: db.prepare(
      `DELETE FROM removed_aspects WHERE removed_at < ?
         AND rowid IN (SELECT rowid FROM removed_aspects ORDER BY rowid LIMIT ?)`,
    ),
    getVersion: db.prepare(
      `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE urn = ? AND aspect = ? AND version = ?`,
    ),
    hasLatest: db.prepare('SELECT 1 AS found FROM aspects WHERE urn = ? AND aspect = ? AND version = 0'),
    maxVersion: db.prepare('SELECT MAX(version) AS max FROM aspects WHERE urn = ? AND aspect = ?'),
    // History is a copy made inside SQLite (the stored bytes, not inflated); version 0 is then
    // rewritten in place. History rows leave the run columns NULL: only version 0 is in a run.
    copyLatestToHistory: db.prepare(
      `INSERT INTO aspects (${ASPECT_COLUMNS})
       SELECT urn, aspect, ?, metadata, system_metadata, created_on, created_by, created_for, created_message
       FROM aspects WHERE urn = ? AND aspect = ? AND version = 0`,
    ),
    replaceLatest: db.prepare(
      `UPDATE aspects SET metadata = @metadata, system_metadata = @systemMetadata, created_on = @createdOn,
         created_by = @createdBy, created_for = @createdFor, created_message = @createdMessage,
         ${RUN_COLUMNS_SET}
       WHERE urn = @urn AND aspect = @aspect AND version = 0`,
    ),
    insertLatest: db.prepare(
      `INSERT INTO aspects (${ASPECT_COLUMNS}, run_id, last_observed)
       VALUES (@urn, @aspect, 0, @metadata, @systemMetadata, @createdOn, @createdBy, @createdFor,
         @createdMessage, ${RUN_ID_OF('@systemText')}, ${LAST_OBSERVED_OF('@systemText', '@createdOn')})`,
    ),
    updateSystemMetadata: db.prepare(
      `UPDATE aspects SET system_metadata = @systemMetadata, ${RUN_COLUMNS_OBSERVED_SET}
       WHERE urn = @urn AND aspect = @aspect AND version = 0`,
    ),
    deleteAspect: db.prepare('DELETE FROM aspects WHERE urn = ? AND aspect = ?'),
    latestOfEntity: db.prepare(
      `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE urn = ? AND version = 0 ORDER BY aspect`,
    ),
    deleteEntity: db.prepare('DELETE FROM aspects WHERE urn = ?'),
    // Version 0 first (it is the newest), then history from the highest version down.
    listVersions: db.prepare(
      `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE urn = ? AND aspect = ?
       ORDER BY CASE WHEN version = 0 THEN 0 ELSE 1 END, version DESC`,
    ),
  };
}
