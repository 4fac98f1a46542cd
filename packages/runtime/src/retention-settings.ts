import type { TopicNames, TopicRetention } from '@catalog/events';
import type { EnvReader } from './env-reader.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long embedded data that only serves delivery is kept: the embedded log's topics (the distributed
 * family's topics get their retention from the broker and the TopicSpecs the services ensure) and the
 * aspect store's request ids (idempotent redelivery), on both store adapters.
 */
export interface RetentionSettings {
  /**
   * CATALOG_LOG_RETENTION_MS: proposals, the versioned change log, failed proposals, platform events and
   * any other topic without a bound of its own. Default 7 days, Kafka's broker default.
   */
  readonly logRetentionMs: number;
  /** CATALOG_LOG_RETENTION_BYTES: size bound per partition of every bounded topic; -1 none. Default 1 GiB. */
  readonly logRetentionBytes: number;
  /** CATALOG_LOG_TIMESERIES_RETENTION_MS: the time-series change log. Default 90 days, as the ecosystem's. */
  readonly timeseriesRetentionMs: number;
  /** CATALOG_LOG_OUTCOME_RETENTION_MS: proposal outcomes (notifications). Default 1 hour. */
  readonly outcomeRetentionMs: number;
  /** CATALOG_LOG_RETENTION_CHECK_INTERVAL_MS: pause between two retention passes. Default 60 s. */
  readonly logRetentionCheckIntervalMs: number;
  /**
   * CATALOG_REQUEST_RETENTION_MS: how long the store remembers a request id, so a redelivered proposal
   * is answered from its recorded result. Default 7 days, the proposals' retention: a group replaying
   * the whole proposal topic then still finds every request id.
   */
  readonly requestRetentionMs: number;
  /** CATALOG_REQUEST_MAX_ROWS: at most this many request ids are remembered (oldest forgotten first). */
  readonly maxRequestRows: number;
}

/** Reads the retention variables; bad values are reported by the reader's finish(). */
export function readRetentionSettings(env: EnvReader): RetentionSettings {
  const bound = { min: -1 };
  return {
    logRetentionMs: env.int('CATALOG_LOG_RETENTION_MS', 7 * DAY_MS, bound),
    logRetentionBytes: env.int('CATALOG_LOG_RETENTION_BYTES', 1024 * 1024 * 1024, bound),
    timeseriesRetentionMs: env.int('CATALOG_LOG_TIMESERIES_RETENTION_MS', 90 * DAY_MS, bound),
    outcomeRetentionMs: env.int('CATALOG_LOG_OUTCOME_RETENTION_MS', 60 * 60 * 1000, bound),
    logRetentionCheckIntervalMs: env.int('CATALOG_LOG_RETENTION_CHECK_INTERVAL_MS', 60_000, {
      min: 100,
      max: DAY_MS,
    }),
    requestRetentionMs: env.int('CATALOG_REQUEST_RETENTION_MS', 7 * DAY_MS, { min: 1000 }),
    maxRequestRows: env.int('CATALOG_REQUEST_MAX_ROWS', 1_000_000, { min: 1000 }),
  };
}

/**
 * The embedded log's bound per topic. Configuration wins over the TopicSpecs in code, and is written to
 * topics that already exist. The schema registrations and the upgrade history are state, not
 * delivery: kept forever.
 */
export function embeddedTopicRetention(
  topics: TopicNames,
  settings: RetentionSettings,
): Readonly<Record<string, TopicRetention>> {
  const delivery = { retentionMs: settings.logRetentionMs, retentionBytes: settings.logRetentionBytes };
  const forever = { retentionMs: -1, retentionBytes: -1 };
  return {
    [topics.metadataChangeProposal]: delivery,
    [topics.failedMetadataChangeProposal]: delivery,
    [topics.metadataChangeLogVersioned]: delivery,
    [topics.platformEvent]: delivery,
    [topics.metadataChangeLogTimeseries]: { ...delivery, retentionMs: settings.timeseriesRetentionMs },
    [topics.proposalOutcome]: { ...delivery, retentionMs: settings.outcomeRetentionMs },
    [topics.schemaRegistry]: forever,
    [topics.upgradeHistory]: forever,
  };
}
