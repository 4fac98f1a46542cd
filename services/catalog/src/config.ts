import { readAuditSection, type AuditSettings } from '@catalog/audit';
import { readChangeEventsSection } from '@catalog/change-events';
import { readWebhookDispatcherSection, type WebhookDispatcherSection } from '@catalog/webhooks';
import { readGatewaySection, type GatewayConfig } from '@catalog/gateway';
import { readIndexerSection, type IndexerConfig } from '@catalog/indexer';
import { readPersistenceSection, type PersistenceConfig } from '@catalog/persistence';
import {
  EnvReader,
  readAdapterSettings,
  readLogLevel,
  readProcessNice,
  type ConsumerSettings,
} from '@catalog/runtime';

/** The all-in-one process: the gateway's and the consumers' settings over one set of adapters. */
export interface CatalogConfig extends GatewayConfig {
  readonly persistence: Pick<
    PersistenceConfig,
    'groupId' | 'maxBatchSize' | 'batchWaitMs' | 'maxAttempts' | 'structuredProperties' | 'retention'
  >;
  readonly indexer: Pick<
    IndexerConfig,
    'groupId' | 'maxBatchSize' | 'batchWaitMs' | 'maxAttempts' | 'structuredProperties'
  >;
  /** The audit consumer: its group, batch size, retention and what it records. */
  readonly audit: AuditSettings;
  /** The entity change event producer (it runs beside the audit consumer, on its thread). */
  readonly changeEvents: ConsumerSettings;
  /**
   * The webhook dispatcher (on the HTTP thread: it waits on destinations, it does not compute). Here
   * loopback and private destinations are allowed by default (WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=false
   * refuses them): the all-in-one catalog is the single-host and development form, where the receiver
   * is often on the same host. Link-local and metadata addresses are refused whatever it says.
   */
  readonly webhookDispatcher: WebhookDispatcherSection;
  /** Run persistence, the indexer and the audit consumer in worker threads (other cores) rather than on the HTTP event loop. */
  readonly consumerThreads: boolean;
  /**
   * Nice value of each consumer's thread (0 = same as the rest; up to 19 = only spare CPU): the
   * services' own PERSISTENCE_NICE (default 0), INDEXER_NICE and AUDIT_NICE (default
   * CATALOG_INDEXER_NICE, else 10), so a part runs at the same priority here as alone.
   */
  readonly nice: { readonly persistence: number; readonly indexer: number; readonly audit: number };
  /**
   * CATALOG_THREAD_YOUNG_GENERATION_MB: the most each consumer thread's V8 young generation may take
   * (its two semi-spaces and new large objects; V8's default lets it grow to 48 MiB a thread). Objects
   * live briefly in a consumer (one batch), and a large young generation only holds garbage between
   * scavenges: at 100,000 datasets each thread's heap stayed tens of MiB larger after a load.
   */
  readonly threadYoungGenerationMb: number;
}

/** CATALOG_THREAD_YOUNG_GENERATION_MB when unset: semi-spaces of 2 MiB (see bench:search's memory table). */
export const DEFAULT_THREAD_YOUNG_GENERATION_MB = 6;

export function readCatalogConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<CatalogConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const gateway = readGatewaySection(env, adapters.topics);
  const webhookDispatcher = readWebhookDispatcherSection(env, adapters.topics, true);
  const config: CatalogConfig = {
    ...gateway,
    http: {
      ...gateway.http,
      webhooks: {
        allowPrivate: webhookDispatcher.delivery.allowPrivate,
        timeoutMs: webhookDispatcher.delivery.timeoutMs,
      },
    },
    webhookDispatcher,
    logLevel: readLogLevel(env),
    adapters,
    persistence: readPersistenceSection(env, adapters.topics),
    indexer: readIndexerSection(env, adapters.topics),
    audit: readAuditSection(env, adapters.topics),
    changeEvents: readChangeEventsSection(env, adapters.topics),
    consumerThreads: env.bool('CATALOG_CONSUMER_THREADS', true),
    nice: readNice(env),
    threadYoungGenerationMb: env.int(
      'CATALOG_THREAD_YOUNG_GENERATION_MB',
      DEFAULT_THREAD_YOUNG_GENERATION_MB,
      {
        min: 3,
        max: 1024,
      },
    ),
  };
  env.finish();
  return Object.freeze(config);
}

function readNice(env: EnvReader): CatalogConfig['nice'] {
  const readModels = env.int('CATALOG_INDEXER_NICE', 10, { min: 0, max: 19 });
  return {
    persistence: readProcessNice(env, 'persistence', 0),
    indexer: readProcessNice(env, 'indexer', readModels),
    audit: readProcessNice(env, 'audit', readModels),
  };
}
