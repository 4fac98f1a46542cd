import {
  readConsumerConfig,
  readConsumerSettings,
  type ConsumerConfig,
  type ConsumerSettings,
  type EnvReader,
} from '@catalog/runtime';
import type { TopicNames } from '@catalog/events';

export type IndexerConfig = ConsumerConfig;

/** Larger than persistence's: a batch rebuilds each touched entity once, however many of its aspects changed. */
const DEFAULT_BATCH = 2_000;

/** INDEXER_GROUP_ID and INDEXER_MAX_BATCH (shared with the all-in-one catalog). */
export function readIndexerSection(env: EnvReader, topics: TopicNames): ConsumerSettings {
  return readConsumerSettings(env, 'indexer', topics, DEFAULT_BATCH);
}

export function readIndexerConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<IndexerConfig> {
  return readConsumerConfig(source, 'indexer', DEFAULT_BATCH);
}
