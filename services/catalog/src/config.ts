import { readAuditSection, type AuditSettings } from '@catalog/audit';
import { readGatewaySection, type GatewayConfig } from '@catalog/gateway';
import { readIndexerSection, type IndexerConfig } from '@catalog/indexer';
import { readPersistenceSection, type PersistenceConfig } from '@catalog/persistence';
import { EnvReader, readAdapterSettings, readLogLevel } from '@catalog/runtime';

/** The all-in-one process: the gateway's and the consumers' settings over one set of adapters. */
export interface CatalogConfig extends GatewayConfig {
  readonly persistence: Pick<
    PersistenceConfig,
    'groupId' | 'maxBatchSize' | 'batchWaitMs' | 'maxAttempts' | 'structuredProperties'
  >;
  readonly indexer: Pick<
    IndexerConfig,
    'groupId' | 'maxBatchSize' | 'batchWaitMs' | 'maxAttempts' | 'structuredProperties'
  >;
  /** The audit consumer: its group, batch size, retention and what it records. */
  readonly audit: AuditSettings;
  /** Run persistence, the indexer and the audit consumer in worker threads (other cores) rather than on the HTTP event loop. */
  readonly consumerThreads: boolean;
  /** Nice value of the indexer thread (0 = same as the rest; up to 19 = only spare CPU). */
  readonly indexerNice: number;
}

export function readCatalogConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<CatalogConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: CatalogConfig = {
    ...readGatewaySection(env, adapters.topics),
    logLevel: readLogLevel(env),
    adapters,
    persistence: readPersistenceSection(env, adapters.topics),
    indexer: readIndexerSection(env, adapters.topics),
    audit: readAuditSection(env, adapters.topics),
    consumerThreads: env.bool('CATALOG_CONSUMER_THREADS', true),
    indexerNice: env.int('CATALOG_INDEXER_NICE', 10, { min: 0, max: 19 }),
  };
  env.finish();
  return Object.freeze(config);
}
