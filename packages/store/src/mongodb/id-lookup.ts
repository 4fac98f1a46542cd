import type { Db, MongoClient } from 'mongodb';

/**
 * How the aspect store reads documents by `_id` depends on what the server's planner can answer from its
 * `_id` index, which the store asks the server itself (explain) rather than guessing from its name:
 * - MongoDB answers `_id: {$in: [...]}` from the index: one query per chunk of ids.
 * - FerretDB 1.24 on SQLite answers only `_id` equality from the index, and only once patched (see
 *   infra/local/ferretdb-sqlite-id-index.patch); `$in` reads and filters the whole collection. There,
 *   one equality query per id, run concurrently, is an index lookup each (1.4 ms at 20,000 documents
 *   against about 500 ms for an `$in` of 5 ids, and the `$in` grows with the collection).
 * - A server that uses no index for either (FerretDB 1.24 unpatched): `$in`, which scans once per
 *   query instead of once per id.
 */
const equalityOnly = new WeakSet<MongoClient>();

/** An `_id` no document has: the plan is what matters, not the answer. */
const PROBE_ID = '\u0000id-lookup-probe';

/**
 * Explains an equality and an `$in` lookup on `collection` (which must exist) and remembers for this
 * client whether ids are best looked up one by one.
 */
export async function learnIdLookup(db: Db, collection: string): Promise<void> {
  const uses = async (filter: object) =>
    usesIndex(await db.command({ explain: { find: collection, filter }, verbosity: 'queryPlanner' }));
  let equalityIndexed = false;
  try {
    const inIndexed = await uses({ _id: { $in: [PROBE_ID, `${PROBE_ID}2`] } });
    equalityIndexed = !inIndexed && (await uses({ _id: PROBE_ID }));
  } catch {
    // A server (or a user's role) that refuses explain: `$in`, which every server answers correctly.
  }
  if (equalityIndexed) equalityOnly.add(db.client);
  else equalityOnly.delete(db.client);
}

/** Whether documents of this client's server are looked up by one equality query per id. */
export function looksUpIdsByEquality(client: MongoClient): boolean {
  return equalityOnly.has(client);
}

/**
 * Whether an explain's plan reads through an index: MongoDB's stages (IXSCAN, IDHACK, EXPRESS_*), SQLite's
 * `SEARCH ... USING INDEX` (FerretDB on SQLite), PostgreSQL's index scans (FerretDB on PostgreSQL).
 */
export function usesIndex(explain: unknown): boolean {
  const plan = JSON.stringify((explain as { queryPlanner?: unknown } | null)?.queryPlanner ?? null);
  return /IXSCAN|IDHACK|EXPRESS_|USING (?:COVERING )?INDEX|USING (?:INTEGER )?PRIMARY KEY|Index (?:Only )?Scan|Bitmap Index Scan/.test(
    plan,
  );
}
