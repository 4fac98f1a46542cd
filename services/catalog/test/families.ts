import { randomBytes } from 'node:crypto';
import { skipUnlessCi } from '@catalog/testkit';

/** A named way to run the catalog: the embedded adapters, or the real services in isolation. */
export interface Family {
  readonly name: string;
  /** Why this family cannot run here, or undefined when it can. */
  readonly skip?: string;
  /** Environment for a fresh, isolated catalog of this family. */
  env(): Record<string, string>;
}

/** Topic names unique to one run, so catalogs sharing a Kafka never see each other's records. */
export function isolatedTopics(prefix: string): Record<string, string> {
  return {
    METADATA_CHANGE_PROPOSAL_TOPIC_NAME: `${prefix}_MetadataChangeProposal_v1`,
    FAILED_METADATA_CHANGE_PROPOSAL_TOPIC_NAME: `${prefix}_FailedMetadataChangeProposal_v1`,
    METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME: `${prefix}_MetadataChangeLog_Versioned_v1`,
    METADATA_CHANGE_LOG_TIMESERIES_TOPIC_NAME: `${prefix}_MetadataChangeLog_Timeseries_v1`,
    PLATFORM_EVENT_TOPIC_NAME: `${prefix}_PlatformEvent_v1`,
    DATAHUB_UPGRADE_HISTORY_TOPIC_NAME: `${prefix}_DataHubUpgradeHistory_v1`,
    METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME: `${prefix}_MetadataChangeProposalOutcome_v1`,
  };
}

/** The real services' environment for one isolated catalog: own database, index prefix and topics. */
export function distributedEnv(): Record<string, string> {
  const id = `e2e${randomBytes(4).toString('hex')}`;
  const mongo = new URL(process.env['MONGODB_URI']!);
  mongo.pathname = `/catalog_${id}`;
  return {
    KAFKA_BOOTSTRAP_SERVER: process.env['KAFKA_BOOTSTRAP_SERVER']!,
    MONGODB_URI: mongo.toString(),
    OPENSEARCH_URL: process.env['OPENSEARCH_URL']!,
    INDEX_PREFIX: id,
    ...isolatedTopics(id),
  };
}

const missing = ['KAFKA_BOOTSTRAP_SERVER', 'MONGODB_URI', 'OPENSEARCH_URL'].filter((v) => !process.env[v]);

export const FAMILIES: readonly Family[] = [
  { name: 'embedded', env: () => ({}) },
  {
    name: 'kafka+mongodb+opensearch',
    ...(missing.length > 0
      ? { skip: skipUnlessCi(`${missing.join(', ')} not set (run pnpm infra:up and source its env)`) }
      : {}),
    env: distributedEnv,
  },
];
