import {
  readConsumerConfig,
  readConsumerSettings,
  type ConsumerConfig,
  type ConsumerSettings,
  type EnvReader,
} from '@catalog/runtime';
import type { TopicNames } from '@catalog/events';

export type PersistenceConfig = ConsumerConfig;

const DEFAULT_BATCH = 500;

/** PERSISTENCE_GROUP_ID and PERSISTENCE_MAX_BATCH (shared with the all-in-one catalog). */
export function readPersistenceSection(env: EnvReader, topics: TopicNames): ConsumerSettings {
  return readConsumerSettings(env, 'persistence', topics, DEFAULT_BATCH);
}

export function readPersistenceConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<PersistenceConfig> {
  return readConsumerConfig(source, 'persistence', DEFAULT_BATCH);
}
