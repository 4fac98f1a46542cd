import { defaultConsumerGroup, EnvReader, readAdapterSettings, type AdapterSettings } from '@catalog/runtime';
import type { TopicNames } from '@catalog/events';

export interface PersistenceConfig {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  readonly groupId: string;
  readonly maxBatchSize: number;
}

export function readPersistenceSection(
  env: EnvReader,
  topics: TopicNames,
): Pick<PersistenceConfig, 'groupId' | 'maxBatchSize'> {
  return {
    groupId: env.string('PERSISTENCE_GROUP_ID', defaultConsumerGroup('persistence', topics)),
    maxBatchSize: env.int('PERSISTENCE_MAX_BATCH', 500, { min: 1, max: 10_000 }),
  };
}

export function readPersistenceConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<PersistenceConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: PersistenceConfig = {
    ...readPersistenceSection(env, adapters.topics),
    logLevel: env.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
