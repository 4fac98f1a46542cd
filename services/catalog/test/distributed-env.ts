import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';

/** Topic names unique to one run, so catalogs sharing a Kafka never see each other's records. */
export function isolatedTopics(prefix: string): Record<string, string> {
  return {
    METADATA_CHANGE_PROPOSAL_TOPIC_NAME: `${prefix}_MetadataChangeProposal_v1`,
    FAILED_METADATA_CHANGE_PROPOSAL_TOPIC_NAME: `${prefix}_FailedMetadataChangeProposal_v1`,
    METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME: `${prefix}_MetadataChangeLog_Versioned_v1`,
    METADATA_CHANGE_LOG_TIMESERIES_TOPIC_NAME: `${prefix}_MetadataChangeLog_Timeseries_v1`,
    PLATFORM_EVENT_TOPIC_NAME: `${prefix}_PlatformEvent_v1`,
    DATAHUB_UPGRADE_HISTORY_TOPIC_NAME: `${prefix}_DataHubUpgradeHistory_v1`,
    DATAHUB_USAGE_EVENT_NAME: `${prefix}_DataHubUsageEvent_v1`,
    METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME: `${prefix}_MetadataChangeProposalOutcome_v1`,
    // The schema registry's topic too: registrations of one run never reach another's readers.
    CATALOG_SCHEMAS_TOPIC_NAME: `${prefix}_CatalogSchemas_v1`,
  };
}

/**
 * The real services' environment for one isolated catalog: own database, index prefix and topics, on
 * the services the URLs name (by default the shared ones the environment names).
 */
export function distributedEnv(
  urls: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const id = `e2e${randomBytes(4).toString('hex')}`;
  const mongo = new URL(urls['MONGODB_URI']!);
  mongo.pathname = `/catalog_${id}`;
  return {
    KAFKA_BOOTSTRAP_SERVER: urls['KAFKA_BOOTSTRAP_SERVER']!,
    MONGODB_URI: mongo.toString(),
    OPENSEARCH_URL: urls['OPENSEARCH_URL']!,
    INDEX_PREFIX: id,
    ...isolatedTopics(id),
  };
}

/** Runs `work` with a Kafka admin client on the catalog's broker (from its environment), then disconnects. */
export async function withKafkaAdmin<T>(
  env: Readonly<Record<string, string>>,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const kafka = new Kafka({
    clientId: 'e2e-inspect',
    brokers: env['KAFKA_BOOTSTRAP_SERVER']!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}
