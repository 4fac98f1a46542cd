import type Database from 'better-sqlite3';
import { ASPECT_COLUMNS, type EncodedAspectRow } from './aspect-row.js';
import { ASPECT_ID, JOINED_COLUMNS, ROW_JOINS, URN_ID } from './keyed-by-ids.js';
import { DictionaryCache } from './dictionary-cache.js';
import { byAspectName, ID_COLUMNS, withTexts, type IdRow } from './rows-by-ids.js';
import type { RequestKey } from './request-key.js';
import { LAST_OBSERVED_OF, RUN_ID_OF, RUN_ROW_OF } from './run-columns.js';
import type { StoredJson } from './stored-json.js';

/**
 * A version 0 as written: its JSON columns as stored (see stored-json.ts), and its system metadata's
 * text too, from which SQLite takes the run columns (with the json_extract the run index was built on
 * before the file stored system metadata deflated, so a row keys the same run as it did then).
 */
export interface LatestValues {
  readonly urn: string;
  /** aspect_names.id and actors.id of the aspect name and createdBy (see DictionaryCache.ensure). */
  readonly aspectId: number;
  readonly actorId: number;
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
 *
 * The file keys URNs, aspect names, actors and runs by dictionary ids (schema 5, keyed-by-ids.ts):
 * statements take a URN's text and look its id up in SQL (a lookup in the urns index costs about a
 * third of a point read's statement, and far less than decoding the row); aspect names and actors
 * come from the connection's caches (DictionaryCache), both when a write names them and when a read
 * gives them (rows-by-ids.ts). The writes that store a version 0 first make sure its URN and run
 * rows exist (the ensure* statements).
 */
export interface SqliteStatements {
  /**
   * `result` as stored-json.ts keeps it (records written before schema 4 are plain text), or for
   * format PACKED_REFERENCES as packed-record.ts packs it.
   */
  readonly findRequest: Database.Statement<[RequestKey], { result: StoredJson; format: number }>;
  readonly recordRequest: Database.Statement<[RequestKey, StoredJson, number, number]>;
  readonly forgetRequest: Database.Statement<[RequestKey]>;
  readonly pruneRequests: Database.Statement<[number, number]>;
  readonly countRequests: Database.Statement<[], { count: number }>;
  readonly pruneOldestRequests: Database.Statement<[number]>;
  readonly oldestRequest: Database.Statement<[], { applied_at: number }>;
  readonly keepRemovedAspect: Database.Statement<[number, string, string]>;
  readonly keepRemovedEntity: Database.Statement<[number, string]>;
  readonly removedVersions: Database.Statement<[string, string], EncodedAspectRow>;
  /**
   * Copies the history rows a retention rules out (urn, aspect, numbered 1 to the bound, written
   * before the time) into removed_aspects, with the time (first), for the records that name them.
   */
  readonly keepPrunedHistory: Database.Statement<[number, string, string, number, number]>;
  /** Deletes the history rows keepPrunedHistory copied: urn, aspect, the number bound, the time bound. */
  readonly pruneHistory: Database.Statement<[string, string, number, number]>;
  readonly pruneRemoved: Database.Statement<[number, number]>;
  readonly ensureUrn: Database.Statement<[{ urn: string }]>;
  /** The ids of aspect names and actors, cached: the write path and point reads use them. */
  readonly aspectNames: DictionaryCache;
  readonly actors: DictionaryCache;
  /** Takes a system metadata text (or null); adds its run, unless it is the default run. */
  readonly ensureRun: Database.Statement<[string | null]>;
  /** Deletes the URN's dictionary row once no aspect row names it. */
  readonly forgetUrn: Database.Statement<[string]>;
  /** Copies the row forgetUrn is about to delete into removed_urns, with the time (first). */
  readonly keepRemovedUrn: Database.Statement<[number, string]>;
  readonly pruneRemovedUrns: Database.Statement<[number, number]>;
  readonly urnId: Database.Statement<[string], { id: number }>;
  /** The URN of an id, from urns or, once its entity is gone, removed_urns (the id bound twice). */
  readonly urnText: Database.Statement<[number, number], { urn: string }>;
  /** One version of an aspect, read by its ids (its name and actor from the caches). */
  readonly getVersion: { get(urn: string, aspect: string, version: number): EncodedAspectRow | undefined };
  readonly hasLatest: Database.Statement<[string, string], { found: number }>;
  readonly maxVersion: Database.Statement<[string, string], { max: number | null }>;
  readonly copyLatestToHistory: Database.Statement<[number, string, string]>;
  readonly replaceLatest: Database.Statement<[LatestValues]>;
  readonly insertLatest: Database.Statement<[LatestValues]>;
  readonly updateSystemMetadata: Database.Statement<
    [{ systemMetadata: StoredJson | null; systemText: string | null; urn: string; aspect: string }]
  >;
  readonly deleteAspect: Database.Statement<[string, string]>;
  /** Every version 0 of an entity, by aspect name (the texts from the caches, see rows-by-ids.ts). */
  readonly latestOfEntity: { all(urn: string): EncodedAspectRow[] };
  readonly deleteEntity: Database.Statement<[string]>;
  readonly listVersions: Database.Statement<[string, string], EncodedAspectRow>;
}

// A SET sees the row's old values: replaceLatest writes created_on too, so it takes @createdOn.
const RUN_COLUMNS_SET = `run_id = ${RUN_ROW_OF('@systemText')},
  last_observed = ${LAST_OBSERVED_OF('@systemText', '@createdOn')}`;
const RUN_COLUMNS_OBSERVED_SET = `run_id = ${RUN_ROW_OF('@systemText')},
  last_observed = ${LAST_OBSERVED_OF('@systemText', 'created_on')}`;

/** The version 0 or every row of one aspect, by its URN and name bound as `?`s. */
const OF_ASPECT = `urn_id = ${URN_ID('?')} AND aspect_id = ${ASPECT_ID('?')}`;
const OF_NAMED_ASPECT = `urn_id = ${URN_ID('@urn')} AND aspect_id = ${ASPECT_ID('@aspect')}`;

export function prepareStatements(db: Database.Database): SqliteStatements {
  const aspectNames = new DictionaryCache(db, 'aspect_names', 'name');
  const actors = new DictionaryCache(db, 'actors', 'actor');
  const getVersionById = db.prepare<[string, number, number], IdRow>(
    `SELECT ${ID_COLUMNS} FROM aspects a WHERE a.urn_id = ${URN_ID('?')} AND a.aspect_id = ? AND a.version = ?`,
  );
  const latestOfEntityById = db.prepare<[string], IdRow>(
    `SELECT ${ID_COLUMNS} FROM aspects a WHERE a.urn_id = ${URN_ID('?')} AND a.version = 0`,
  );
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
    // Every version of what a delete removes, kept (by its texts) for the request records that name them.
    keepRemovedAspect: db.prepare(
      `INSERT INTO removed_aspects (${ASPECT_COLUMNS}, removed_at)
       SELECT ${JOINED_COLUMNS}, ? FROM ${ROW_JOINS} WHERE u.urn = ? AND n.name = ?`,
    ),
    keepRemovedEntity: db.prepare(
      `INSERT INTO removed_aspects (${ASPECT_COLUMNS}, removed_at)
       SELECT ${JOINED_COLUMNS}, ? FROM ${ROW_JOINS} WHERE u.urn = ?`,
    ),
    // Newest removal first.
    removedVersions: db.prepare(
      `SELECT ${ASPECT_COLUMNS} FROM removed_aspects WHERE urn = ? AND aspect = ? ORDER BY rowid DESC`,
    ),
    keepPrunedHistory: db.prepare(
      `INSERT INTO removed_aspects (${ASPECT_COLUMNS}, removed_at)
       SELECT ${JOINED_COLUMNS}, ? FROM ${ROW_JOINS}
       WHERE u.urn = ? AND n.name = ? AND a.version BETWEEN 1 AND ? AND a.created_on < ?`,
    ),
    pruneHistory: db.prepare(
      `DELETE FROM aspects WHERE ${OF_ASPECT} AND version BETWEEN 1 AND ? AND created_on < ?`,
    ),
    pruneRemoved: db.prepare(
      `DELETE FROM removed_aspects WHERE removed_at < ?
         AND rowid IN (SELECT rowid FROM removed_aspects ORDER BY rowid LIMIT ?)`,
    ),
    // Not INSERT ... ON CONFLICT: with AUTOINCREMENT, an insert that conflicts still uses up an id.
    ensureUrn: db.prepare(
      'INSERT INTO urns (urn) SELECT @urn WHERE NOT EXISTS (SELECT 1 FROM urns WHERE urn = @urn)',
    ),
    aspectNames,
    actors,
    // OR IGNORE skips the NULL of the default run (NOT NULL) as it skips a run already there.
    ensureRun: db.prepare<[string | null]>(`INSERT OR IGNORE INTO runs (run_id) VALUES (${RUN_ID_OF('?')})`),
    forgetUrn: db.prepare(
      'DELETE FROM urns WHERE urn = ? AND NOT EXISTS (SELECT 1 FROM aspects WHERE urn_id = urns.id)',
    ),
    // OR REPLACE: an id is removed once (never handed out again), but a file edited behind the
    // store's back must not make every later delete of the entity fail.
    keepRemovedUrn: db.prepare(
      `INSERT OR REPLACE INTO removed_urns (id, urn, removed_at) SELECT id, urn, ? FROM urns
       WHERE urn = ? AND NOT EXISTS (SELECT 1 FROM aspects WHERE urn_id = urns.id)`,
    ),
    // By removal time, not id: ids follow creation.
    pruneRemovedUrns: db.prepare(
      `DELETE FROM removed_urns WHERE id IN
         (SELECT id FROM removed_urns WHERE removed_at < ? ORDER BY removed_at LIMIT ?)`,
    ),
    urnId: db.prepare('SELECT id FROM urns WHERE urn = ?'),
    urnText: db.prepare(
      'SELECT urn FROM urns WHERE id = ? UNION ALL SELECT urn FROM removed_urns WHERE id = ?',
    ),
    getVersion: {
      get(urn, aspect, version) {
        const aspectId = aspectNames.find(aspect);
        if (aspectId === undefined) return undefined;
        const row = getVersionById.get(urn, aspectId, version);
        return row === undefined ? undefined : withTexts(row, urn, { aspectNames, actors });
      },
    },
    hasLatest: db.prepare(`SELECT 1 AS found FROM aspects WHERE ${OF_ASPECT} AND version = 0`),
    maxVersion: db.prepare(`SELECT MAX(version) AS max FROM aspects WHERE ${OF_ASPECT}`),
    // History is a copy made inside SQLite (the stored bytes, not inflated); version 0 is then
    // rewritten in place. History rows leave the run columns NULL: only version 0 is in a run.
    copyLatestToHistory: db.prepare(
      `INSERT INTO aspects (urn_id, aspect_id, version, metadata, system_metadata, created_on, created_by,
         created_for, created_message)
       SELECT urn_id, aspect_id, ?, metadata, system_metadata, created_on, created_by, created_for,
         created_message
       FROM aspects WHERE ${OF_ASPECT} AND version = 0`,
    ),
    replaceLatest: db.prepare(
      `UPDATE aspects SET metadata = @metadata, system_metadata = @systemMetadata, created_on = @createdOn,
         created_by = @actorId, created_for = @createdFor, created_message = @createdMessage,
         ${RUN_COLUMNS_SET}
       WHERE urn_id = ${URN_ID('@urn')} AND aspect_id = @aspectId AND version = 0`,
    ),
    insertLatest: db.prepare(
      `INSERT INTO aspects (urn_id, aspect_id, version, metadata, system_metadata, created_on, created_by,
         created_for, created_message, run_id, last_observed)
       VALUES (${URN_ID('@urn')}, @aspectId, 0, @metadata, @systemMetadata, @createdOn, @actorId,
         @createdFor, @createdMessage,
         ${RUN_ROW_OF('@systemText')}, ${LAST_OBSERVED_OF('@systemText', '@createdOn')})`,
    ),
    updateSystemMetadata: db.prepare(
      `UPDATE aspects SET system_metadata = @systemMetadata, ${RUN_COLUMNS_OBSERVED_SET}
       WHERE ${OF_NAMED_ASPECT} AND version = 0`,
    ),
    deleteAspect: db.prepare(`DELETE FROM aspects WHERE ${OF_ASPECT}`),
    latestOfEntity: {
      all(urn) {
        const rows = latestOfEntityById.all(urn);
        return byAspectName(rows.map((row) => withTexts(row, urn, { aspectNames, actors })));
      },
    },
    deleteEntity: db.prepare(`DELETE FROM aspects WHERE urn_id = ${URN_ID('?')}`),
    // Version 0 first (it is the newest), then history from the highest version down.
    listVersions: db.prepare(
      `SELECT ${JOINED_COLUMNS} FROM ${ROW_JOINS} WHERE u.urn = ? AND n.name = ?
       ORDER BY CASE WHEN a.version = 0 THEN 0 ELSE 1 END, a.version DESC`,
    ),
  };
}
