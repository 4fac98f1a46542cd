import type { TopicNames } from '@catalog/events';
import { defaultConsumerGroup, readAdapterSettings, type AdapterSettings } from './adapter-settings.js';
import { EnvReader } from './env-reader.js';

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

export type ConsumerRole = 'persistence' | 'indexer' | 'audit';

/** What a consumer service reads beyond the adapters: its group and batch size. */
export interface ConsumerSettings {
  readonly groupId: string;
  readonly maxBatchSize: number;
}

export interface ConsumerConfig extends ConsumerSettings {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
}

/** `<ROLE>_GROUP_ID` and `<ROLE>_MAX_BATCH`, e.g. PERSISTENCE_GROUP_ID. */
export function readConsumerSettings(
  env: EnvReader,
  role: ConsumerRole,
  topics: TopicNames,
  defaultBatch: number,
): ConsumerSettings {
  const prefix = role.toUpperCase();
  return {
    groupId: env.string(`${prefix}_GROUP_ID`, defaultConsumerGroup(role, topics)),
    maxBatchSize: env.int(`${prefix}_MAX_BATCH`, defaultBatch, { min: 1, max: 10_000 }),
  };
}

/** The whole validated configuration of a consumer deployable; throws a ConfigError naming every bad variable. */
export function readConsumerConfig(
  source: Readonly<Record<string, string | undefined>>,
  role: ConsumerRole,
  defaultBatch: number,
): Readonly<ConsumerConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: ConsumerConfig = {
    ...readConsumerSettings(env, role, adapters.topics, defaultBatch),
    logLevel: readLogLevel(env),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
