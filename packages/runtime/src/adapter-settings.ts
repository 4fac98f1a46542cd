import { DEFAULT_MAX_MESSAGE_BYTES, defaultTopicNames, type TopicNames } from '@catalog/events';
import { resolve } from 'node:path';
import type { EnvReader } from './env-reader.js';
import { readRetentionSettings, type RetentionSettings } from './retention-settings.js';
import { readSqliteCacheBytes } from './sqlite-cache-settings.js';

export interface KafkaSettings {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly partitions: number;
  readonly replicationFactor: number;
}

export interface MongoSettings {
  readonly uri: string;
}

export interface OpenSearchSettings {
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  /** Refresh policy of index writes: 'false' (the node's refresh interval), 'wait_for' or 'true'. */
  readonly refresh: 'false' | 'true' | 'wait_for';
}

/** Which adapter serves each concern, and where: the services never see which they got. */
export interface AdapterSettings {
  /** Embedded data lives here (CATALOG_DATA_DIR). */
  readonly dataDir: string;
  readonly kafka?: KafkaSettings;
  readonly mongodb?: MongoSettings;
  readonly opensearch?: OpenSearchSettings;
  /** INDEX_PREFIX: prefixes every index name (`<prefix>_datasetindex_v2`), as in the ecosystem. */
  readonly indexPrefix: string;
  readonly topics: TopicNames;
  /**
   * KAFKA_SCHEMAREGISTRY_URL: an external Confluent-compatible registry; decoders ask it for writer schemas
   * they do not know (after our fixed ids).
   */
  readonly schemaRegistryUrl?: string;
  /** Embedded durability: survive a process crash (default) or also a power loss (fsync each commit). */
  readonly durability: 'process-crash' | 'power-loss';
  /** Retention of the embedded log's topics and of the store's request ids (CATALOG_*_RETENTION_*). */
  readonly retention: RetentionSettings;
  /**
   * CATALOG_SQLITE_CACHE_BYTES: the bound on the page caches of one process's embedded SQLite
   * connections together, split among the files and their connections by sqliteCacheKiB.
   */
  readonly sqliteCacheBytes: number;
  /**
   * MAX_MESSAGE_BYTES: the log's message-size limit, one setting for every use: the `max.message.bytes`
   * of the topics the services create, the size at which either log refuses a record, and the gateway's
   * check that every accepted write makes a change-log event that fits (see maxAspectBytes).
   */
  readonly maxMessageBytes: number;
}

const TOPIC_ENV: Readonly<Record<keyof TopicNames, string>> = {
  metadataChangeProposal: 'METADATA_CHANGE_PROPOSAL_TOPIC_NAME',
  failedMetadataChangeProposal: 'FAILED_METADATA_CHANGE_PROPOSAL_TOPIC_NAME',
  metadataChangeLogVersioned: 'METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME',
  metadataChangeLogTimeseries: 'METADATA_CHANGE_LOG_TIMESERIES_TOPIC_NAME',
  platformEvent: 'PLATFORM_EVENT_TOPIC_NAME',
  upgradeHistory: 'DATAHUB_UPGRADE_HISTORY_TOPIC_NAME',
  dataHubUsageEvent: 'DATAHUB_USAGE_EVENT_NAME',
  proposalOutcome: 'METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME',
  schemaRegistry: 'CATALOG_SCHEMAS_TOPIC_NAME',
};

/** Reads the adapter variables every deployable shares, with the ecosystem's names. */
export function readAdapterSettings(env: EnvReader): AdapterSettings {
  const topics = Object.fromEntries(
    (Object.keys(TOPIC_ENV) as (keyof TopicNames)[]).map((k) => [
      k,
      env.string(TOPIC_ENV[k], defaultTopicNames[k]),
    ]),
  ) as unknown as TopicNames;
  const bootstrap = env.list('KAFKA_BOOTSTRAP_SERVER');
  // Read whether or not Kafka is selected, so a bad value fails at start in every mode.
  const kafka = {
    clientId: env.string('KAFKA_CLIENT_ID', 'catalog'),
    partitions: env.int('KAFKA_TOPIC_PARTITIONS', 1, { min: 1, max: 1000 }),
    replicationFactor: env.int('KAFKA_TOPIC_REPLICATION_FACTOR', 1, { min: 1, max: 10 }),
  };
  const refresh = env.oneOf('SEARCH_REFRESH_POLICY', ['false', 'true', 'wait_for'] as const, 'false');
  const mongoUri = env.optionalString('MONGODB_URI');
  const schemaRegistryUrl = env.optionalString('KAFKA_SCHEMAREGISTRY_URL');
  const opensearchUrl = env.optionalString('OPENSEARCH_URL');
  const opensearchUser = env.optionalString('OPENSEARCH_USERNAME');
  const opensearchPassword = env.optionalString('OPENSEARCH_PASSWORD');
  return {
    dataDir: resolve(env.string('CATALOG_DATA_DIR', './data')),
    topics,
    durability: env.oneOf('CATALOG_DURABILITY', ['process-crash', 'power-loss'] as const, 'process-crash'),
    retention: readRetentionSettings(env),
    sqliteCacheBytes: readSqliteCacheBytes(env),
    maxMessageBytes: env.int('MAX_MESSAGE_BYTES', DEFAULT_MAX_MESSAGE_BYTES, {
      min: 256 * 1024,
      max: 1024 * 1024 * 1024,
    }),
    ...(bootstrap.length > 0 ? { kafka: { brokers: bootstrap, ...kafka } } : {}),
    ...(mongoUri ? { mongodb: { uri: mongoUri } } : {}),
    ...(schemaRegistryUrl ? { schemaRegistryUrl } : {}),
    ...(opensearchUrl
      ? {
          opensearch: {
            url: opensearchUrl,
            ...(opensearchUser ? { username: opensearchUser } : {}),
            ...(opensearchPassword ? { password: opensearchPassword } : {}),
            refresh,
          },
        }
      : {}),
    indexPrefix: env.string('INDEX_PREFIX', ''),
  };
}

/** The secrets-free view of the settings, for the start-up log line. */
export function describeAdapters(settings: AdapterSettings): Record<string, string> {
  return {
    eventLog: settings.kafka
      ? `kafka (${settings.kafka.brokers.join(',')})`
      : `embedded (${settings.dataDir})`,
    aspectStore: settings.mongodb ? 'mongodb' : `embedded (${settings.dataDir})`,
    searchIndices: settings.opensearch
      ? `opensearch (${redactUrl(settings.opensearch.url)})`
      : `embedded (${settings.dataDir})`,
  };
}

/** A URL without its user-info, so credentials in it never reach a log line. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '[unparseable url]';
  }
}

/**
 * The default consumer group of a role. With the ecosystem's topic names it is the plain role name;
 * with renamed topics it carries the topic name, so catalogs that share a Kafka but differ in topic
 * names never share a group (Kafka clients assign a group's partitions across all its members'
 * topics, whatever each member subscribed to).
 */
export function defaultConsumerGroup(
  role: 'persistence' | 'indexer' | 'audit' | 'change_events',
  topics: TopicNames,
): string {
  const topic = role === 'persistence' ? topics.metadataChangeProposal : topics.metadataChangeLogVersioned;
  const standard =
    role === 'persistence'
      ? defaultTopicNames.metadataChangeProposal
      : defaultTopicNames.metadataChangeLogVersioned;
  return topic === standard ? role : `${role}-${topic}`;
}
