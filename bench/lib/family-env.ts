import { resolve } from 'node:path';
import type { RunResources } from './run-resources.js';

/**
 * The environment of a benchmarked catalog for `--family`: `embedded` keeps everything in a data
 * directory of its own; `distributed` uses KAFKA_BOOTSTRAP_SERVER, MONGODB_URI and OPENSEARCH_URL (pnpm
 * infra:up) with a database, index prefix and topic set of this run only.
 */
export function benchFamilyEnv(family: string, run: string, repoRoot: string): Record<string, string> {
  const dataDir = resolve(repoRoot, `data-bench-${run}`);
  if (family === 'embedded') return { CATALOG_DATA_DIR: dataDir };
  if (family !== 'distributed') throw new Error('--family is embedded or distributed');
  for (const v of ['KAFKA_BOOTSTRAP_SERVER', 'MONGODB_URI', 'OPENSEARCH_URL']) {
    if (!process.env[v])
      throw new Error(`${v} is not set (pnpm infra:up, then: set -a; . /tmp/catalog-infra/env; set +a)`);
  }
  const mongo = new URL(process.env['MONGODB_URI']!);
  mongo.pathname = `/catalog_${run}`;
  const topics = Object.fromEntries(
    [
      ['METADATA_CHANGE_PROPOSAL_TOPIC_NAME', 'MetadataChangeProposal_v1'],
      ['FAILED_METADATA_CHANGE_PROPOSAL_TOPIC_NAME', 'FailedMetadataChangeProposal_v1'],
      ['METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME', 'MetadataChangeLog_Versioned_v1'],
      ['METADATA_CHANGE_LOG_TIMESERIES_TOPIC_NAME', 'MetadataChangeLog_Timeseries_v1'],
      ['METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME', 'MetadataChangeProposalOutcome_v1'],
      ['CATALOG_SCHEMAS_TOPIC_NAME', 'CatalogSchemas_v1'],
    ].map(([k, v]) => [k!, `${run}_${v}`]),
  );
  return {
    KAFKA_BOOTSTRAP_SERVER: process.env['KAFKA_BOOTSTRAP_SERVER']!,
    MONGODB_URI: mongo.toString(),
    OPENSEARCH_URL: process.env['OPENSEARCH_URL']!,
    INDEX_PREFIX: run,
    CATALOG_DATA_DIR: dataDir,
    ...topics,
  };
}

/** What a run of `--family distributed` leaves on the local services (removeRunResources); none embedded. */
export function familyRunResources(env: Record<string, string>): RunResources | undefined {
  const run = env['INDEX_PREFIX'];
  const mongo = env['MONGODB_URI'];
  if (run === undefined || mongo === undefined) return undefined;
  return { runIds: [run], indexPrefixes: [run], mongoUris: [mongo] };
}
