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
import type { TopicNames } from '@catalog/events';

const DEFAULTS = {
  maxBatchSize: 500,
  /** Change events are read live (polls, streams, webhooks): a change log is not held for a fuller batch. */
  batchWaitMs: 0,
};

/** CHANGE_EVENTS_GROUP_ID, CHANGE_EVENTS_MAX_BATCH, CHANGE_EVENTS_BATCH_WAIT_MS and CHANGE_EVENTS_MAX_ATTEMPTS. */
export function readChangeEventsSection(env: EnvReader, topics: TopicNames): ConsumerSettings {
  return readConsumerSettings(env, 'change_events', topics, DEFAULTS);
}

/** The whole validated configuration of the change event producer; throws a ConfigError naming every bad variable. */
export function readChangeEventsConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<ConsumerConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: ConsumerConfig = {
    ...readChangeEventsSection(env, adapters.topics),
    logLevel: readLogLevel(env),
    healthPort: readHealthPort(env),
    nice: readProcessNice(env, 'change_events', 0),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
