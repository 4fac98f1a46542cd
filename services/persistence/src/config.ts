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
import { readRetentionSettings, type RetentionSettings } from './retention-settings.js';

/** What persistence reads beyond the adapters: its consumer settings and the write rules' settings. */
export interface PersistenceSettings extends ConsumerSettings {
  /**
   * The structured-property write rules: STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING
   * (default true), STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH (default 32766) and
   * STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX (default false). Read once, at
   * start: a change needs a restart.
   */
  readonly structuredProperties: StructuredPropertySettings;
  /** The retention of aspect histories (see retention-settings.ts). */
  readonly retention: RetentionSettings;
}

export type PersistenceConfig = ConsumerConfig & PersistenceSettings;

/** Synchronous writes wait for persistence: it reads a record as soon as it is there. */
const DEFAULTS = { maxBatchSize: 500, batchWaitMs: 0 };

/**
 * PERSISTENCE_GROUP_ID, PERSISTENCE_MAX_BATCH, PERSISTENCE_BATCH_WAIT_MS and the STRUCTURED_PROPERTIES_* settings (shared with
 * the all-in-one catalog).
 */
export function readPersistenceSection(env: EnvReader, topics: TopicNames): PersistenceSettings {
  return {
    ...readConsumerSettings(env, 'persistence', topics, DEFAULTS),
    structuredProperties: readStructuredPropertySettings(env),
    retention: readRetentionSettings(env),
  };
}

/** The whole validated configuration of the persistence deployable; throws a ConfigError naming every bad variable. */
export function readPersistenceConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<PersistenceConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: PersistenceConfig = {
    ...readPersistenceSection(env, adapters.topics),
    logLevel: readLogLevel(env),
    healthPort: readHealthPort(env),
    nice: readProcessNice(env, 'persistence', 0),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
