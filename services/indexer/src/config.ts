import {
  EnvReader,
  readAdapterSettings,
  readConsumerSettings,
  readHealthPort,
  readLogLevel,
  type ConsumerConfig,
  type ConsumerSettings,
} from '@catalog/runtime';
import { readStructuredPropertySettings, type StructuredPropertySettings } from '@catalog/model';
import type { TopicNames } from '@catalog/events';

/** What the indexer reads beyond the adapters: its consumer settings and the oversize rule of values. */
export interface IndexerSettings extends ConsumerSettings {
  /**
   * STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH (default 32766) and
   * STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX (default false): with the latter set,
   * a string-backed value over the former (in UTF-8 bytes) is left out of the index with a warning.
   * Restores must use the same, to make the same documents.
   */
  readonly structuredProperties: StructuredPropertySettings;
}

export type IndexerConfig = ConsumerConfig & IndexerSettings;

/** Larger than persistence's: a batch rebuilds each touched entity once, however many of its aspects changed. */
const DEFAULT_BATCH = 2_000;

/** INDEXER_GROUP_ID, INDEXER_MAX_BATCH and STRUCTURED_PROPERTIES_* (shared with the all-in-one catalog). */
export function readIndexerSection(env: EnvReader, topics: TopicNames): IndexerSettings {
  return {
    ...readConsumerSettings(env, 'indexer', topics, DEFAULT_BATCH),
    structuredProperties: readStructuredPropertySettings(env),
  };
}

/** The whole validated configuration of the indexer deployable; throws a ConfigError naming every bad variable. */
export function readIndexerConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<IndexerConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: IndexerConfig = {
    ...readIndexerSection(env, adapters.topics),
    logLevel: readLogLevel(env),
    healthPort: readHealthPort(env),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
