import type { Db } from 'mongodb';

/**
 * Collections and indexes, created when missing (createIndex is idempotent for an identical spec).
 * Only options both MongoDB and FerretDB 1.x accept: no TTL (expireAfterSeconds) and no partial
 * indexes (partialFilterExpression), which FerretDB refuses as not implemented.
 */
export async function ensureCollections(db: Db): Promise<void> {
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
}
