import { EnvReader, readAdapterSettings, type AdapterSettings } from '@catalog/runtime';

export interface IndexerConfig {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  readonly groupId: string;
  readonly maxBatchSize: number;
}

export function readIndexerSection(env: EnvReader): Pick<IndexerConfig, 'groupId' | 'maxBatchSize'> {
  return {
    groupId: env.string('INDEXER_GROUP_ID', 'indexer'),
    maxBatchSize: env.int('INDEXER_MAX_BATCH', 500, { min: 1, max: 10_000 }),
  };
}

export function readIndexerConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<IndexerConfig> {
  const env = new EnvReader(source);
  const config: IndexerConfig = {
    ...readIndexerSection(env),
    logLevel: env.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    adapters: readAdapterSettings(env),
  };
  env.finish();
  return Object.freeze(config);
}
