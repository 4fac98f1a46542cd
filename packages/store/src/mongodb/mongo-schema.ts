import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { usesIndex } from './id-lookup.js';

/**
 * Collections and indexes, created when missing (createIndex is idempotent for an identical spec).
 * Only options both MongoDB and FerretDB 1.x accept: no TTL (expireAfterSeconds) and no partial
 * indexes (partialFilterExpression), which FerretDB refuses as not implemented.
 *
 * The indexes beside `_id` only serve queries on a server whose planner reads through them (MongoDB).
 * One that never does (FerretDB 1.24, which pushes nothing but `_id` down to its storage) would only pay
 * for them on every insert, about a fifth of its CPU per write batch: there they are not created. The
 * server is asked (explain on a probe collection), not guessed from its name. Their uniqueness rule is
 * `_id`'s too, which encodes the same (urn, aspect, version).
 */
export async function ensureCollections(db: Db): Promise<{ readonly secondaryIndexes: boolean }> {
  await ensureCollection(db, 'aspects');
  await ensureCollection(db, 'requests');
  if (!(await readsThroughSecondaryIndexes(db))) return { secondaryIndexes: false };
  const aspects = db.collection('aspects');
  // The invariant (one document per version); _id encodes the same triple, this keeps it explicit
  // and serves listVersions and DELETE.
  await aspects.createIndex({ urn: 1, aspect: 1, version: 1 }, { unique: true, name: 'urn_aspect_version' });
  // Versions 0 in scan order (version, then urn, aspect): scans, counts, getLatest(urn).
  await aspects.createIndex({ version: 1, urn: 1, aspect: 1 }, { name: 'version_urn_aspect' });
  // Ingestion runs: a run's versions 0 by urn and aspect (findRunRows), and the run listing's groups.
  await aspects.createIndex(
    { version: 1, runId: 1, urn: 1, aspect: 1, lastObserved: 1 },
    { name: 'version_run_urn_aspect' },
  );
  await aspects.createIndex({ version: 1, runId: 1, lastObserved: -1 }, { name: 'version_run_observed' });
  await db.collection('requests').createIndex({ appliedAt: 1 }, { name: 'applied_at' });
  return { secondaryIndexes: true };
}

/** MongoDB's answer when a collection exists already. */
const NAMESPACE_EXISTS = 48;

async function ensureCollection(db: Db, name: string): Promise<void> {
  try {
    await db.createCollection(name);
  } catch (error) {
    if ((error as { code?: unknown }).code !== NAMESPACE_EXISTS) throw error;
  }
}

/**
 * Whether the server's planner answers a filter on indexed fields other than `_id` from the index: an
 * index on a fresh probe collection (named per call, so that stores opening at once do not meet), the
 * plan of a query it serves, and the probe dropped. A server that refuses explain is taken to use them.
 */
export async function readsThroughSecondaryIndexes(db: Db): Promise<boolean> {
  const name = `index_probe_${randomBytes(6).toString('hex')}`;
  try {
    await db.collection(name).createIndex({ version: 1, urn: 1 }, { name: 'probe' });
    const plan: unknown = await db.command({
      explain: { find: name, filter: { version: 0, urn: '\u0000probe' } },
      verbosity: 'queryPlanner',
    });
    return usesIndex(plan);
  } catch {
    return true;
  } finally {
    await db
      .collection(name)
      .drop()
      .catch(() => undefined);
  }
}
