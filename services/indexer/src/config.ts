import { defaultConsumerGroup, EnvReader, readAdapterSettings, type AdapterSettings } from '@catalog/runtime';
import type { TopicNames } from '@catalog/events';

export interface IndexerConfig {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  readonly groupId: string;
  readonly maxBatchSize: number;
}

export function readIndexerSection(
  env: EnvReader,
  topics: TopicNames,
): Pick<IndexerConfig, 'groupId' | 'maxBatchSize'> {
  return {
    groupId: env.string('INDEXER_GROUP_ID', defaultConsumerGroup('indexer', topics)),
    maxBatchSize: env.int('INDEXER_MAX_BATCH', 2_000, { min: 1, max: 10_000 }),
  };
}

export function readIndexerConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<IndexerConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: IndexerConfig = {
    ...readIndexerSection(env, adapters.topics),
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
