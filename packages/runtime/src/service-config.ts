import type { TopicNames } from '@catalog/events';
import { defaultConsumerGroup, readAdapterSettings, type AdapterSettings } from './adapter-settings.js';
import { EnvReader } from './env-reader.js';
import { DEFAULT_MAX_ATTEMPTS } from './consumer-failures/failure-policy.js';

/** LOG_LEVEL (pino's names), else the ecosystem's DATAHUB_GMS_LOG_LEVEL, else info. */
export function readLogLevel(env: EnvReader): string {
  return env.oneOf(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    env
      .oneOf('DATAHUB_GMS_LOG_LEVEL', ['ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'] as const, 'INFO')
      .toLowerCase() as 'info',
  );
}

export type ConsumerRole = 'persistence' | 'indexer' | 'audit' | 'change_events';

/** What a consumer service reads beyond the adapters: its group, batches and failure policy. */
export interface ConsumerSettings {
  readonly groupId: string;
  readonly maxBatchSize: number;
  /** How long a read may wait for a fuller batch (see ConsumeOptions.batchWaitMs); 0 waits for none. */
  readonly batchWaitMs: number;
  /** Deliveries of a record failing for an unknown reason before it is dead-lettered. */
  readonly maxAttempts: number;
}

export interface ConsumerConfig extends ConsumerSettings {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  /** HEALTH_PORT: where the consumer serves /health/live and /health/ready; 0 serves none. */
  readonly healthPort: number;
  /** `<ROLE>_NICE`: the process's nice value (see readProcessNice). */
  readonly nice: number;
}

/** HEALTH_PORT (default 8081; 0 disables): the health endpoints of a service without its own HTTP. */
export function readHealthPort(env: EnvReader): number {
  return env.int('HEALTH_PORT', 8081, { min: 0, max: 65535 });
}

/** A role's defaults for the settings its operators may change. */
export interface ConsumerDefaults {
  readonly maxBatchSize: number;
  readonly batchWaitMs: number;
}

/**
 * `<ROLE>_GROUP_ID`, `<ROLE>_MAX_BATCH`, `<ROLE>_BATCH_WAIT_MS` and `<ROLE>_MAX_ATTEMPTS`, e.g.
 * PERSISTENCE_GROUP_ID.
 */
export function readConsumerSettings(
  env: EnvReader,
  role: ConsumerRole,
  topics: TopicNames,
  defaults: ConsumerDefaults,
): ConsumerSettings {
  const prefix = role.toUpperCase();
  return {
    groupId: env.string(`${prefix}_GROUP_ID`, defaultConsumerGroup(role, topics)),
    maxBatchSize: env.int(`${prefix}_MAX_BATCH`, defaults.maxBatchSize, { min: 1, max: 10_000 }),
    batchWaitMs: env.int(`${prefix}_BATCH_WAIT_MS`, defaults.batchWaitMs, { min: 0, max: 10_000 }),
    maxAttempts: env.int(`${prefix}_MAX_ATTEMPTS`, DEFAULT_MAX_ATTEMPTS, { min: 1, max: 1000 }),
  };
}

/**
 * `<ROLE>_NICE` (0-19): the nice value the service's process runs at. The consumers that only keep
 * eventually consistent read models up to date (indexer, audit) default to 10, as the all-in-one catalog
 * runs them (CATALOG_INDEXER_NICE): where services share a host, the write path keeps the CPU under load
 * and indexing catches up after. On a host (or a Kubernetes pod) of its own a service is unaffected.
 */
export function readProcessNice(env: EnvReader, role: ConsumerRole, fallback: number): number {
  return env.int(`${role.toUpperCase()}_NICE`, fallback, { min: 0, max: 19 });
}

/** The whole validated configuration of a consumer deployable; throws a ConfigError naming every bad variable. */
export function readConsumerConfig(
  source: Readonly<Record<string, string | undefined>>,
  role: ConsumerRole,
  defaults: ConsumerDefaults & { readonly nice: number },
): Readonly<ConsumerConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: ConsumerConfig = {
    ...readConsumerSettings(env, role, adapters.topics, defaults),
    logLevel: readLogLevel(env),
    healthPort: readHealthPort(env),
    nice: readProcessNice(env, role, defaults.nice),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
