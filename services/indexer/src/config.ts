import {
  EnvReader,
  readAdapterSettings,
  readConsumerSettings,
  readHealthPort,
  readLogLevel,
  readProcessNice,
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

const DEFAULTS = {
  /** Larger than persistence's: a batch rebuilds each touched entity once, however many of its aspects changed. */
  maxBatchSize: 2_000,
  /**
   * Every batch costs a read of the store and a bulk request to the search engine whatever its size, and
   * under load change logs come in small batches: waiting up to 100 ms for more made batches several
   * times larger and halved the search engine's and the indexer's CPU per write (bench:ingest, distributed).
   * Search is eventually consistent anyway (OpenSearch makes a write visible at its next refresh, 1 s).
   */
  batchWaitMs: 100,
};

/**
 * INDEXER_GROUP_ID, INDEXER_MAX_BATCH, INDEXER_BATCH_WAIT_MS and STRUCTURED_PROPERTIES_* (shared with the
 * all-in-one catalog).
 */
export function readIndexerSection(env: EnvReader, topics: TopicNames): IndexerSettings {
  return {
    ...readConsumerSettings(env, 'indexer', topics, DEFAULTS),
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
    nice: readProcessNice(env, 'indexer', 10),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
