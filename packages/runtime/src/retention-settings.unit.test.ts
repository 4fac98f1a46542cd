import { defaultTopicNames } from '@catalog/events';
import { describe, expect, it } from 'vitest';
import { readAdapterSettings } from './adapter-settings.js';
import { ConfigError, EnvReader } from './env-reader.js';
import { embeddedTopicRetention, readRetentionSettings } from './retention-settings.js';

const DAY = 24 * 60 * 60 * 1000;

describe('retention settings', () => {
  it('defaults to the broker defaults the ecosystem relies on', () => {
    const env = new EnvReader({});
    const settings = readAdapterSettings(env).retention;
    env.finish();
    expect(settings).toEqual({
      logRetentionMs: 7 * DAY,
      logRetentionBytes: 1024 ** 3,
      timeseriesRetentionMs: 90 * DAY,
      outcomeRetentionMs: 60 * 60 * 1000,
      logRetentionCheckIntervalMs: 60_000,
      requestRetentionMs: 7 * DAY,
      maxRequestRows: 1_000_000,
    });
  });

  it('bounds every delivery topic and keeps the schema registrations and upgrade history forever', () => {
    const env = new EnvReader({
      CATALOG_LOG_RETENTION_MS: '60000',
      CATALOG_LOG_RETENTION_BYTES: '-1',
      CATALOG_LOG_TIMESERIES_RETENTION_MS: '120000',
      CATALOG_LOG_OUTCOME_RETENTION_MS: '5000',
      METADATA_CHANGE_PROPOSAL_TOPIC_NAME: 'renamed_MCP',
    });
    const settings = readAdapterSettings(env);
    env.finish();
    const byTopic = embeddedTopicRetention(settings.topics, settings.retention);
    const delivery = { retentionMs: 60_000, retentionBytes: -1 };
    expect(byTopic).toEqual({
      renamed_MCP: delivery,
      [defaultTopicNames.failedMetadataChangeProposal]: delivery,
      [defaultTopicNames.metadataChangeLogVersioned]: delivery,
      [defaultTopicNames.platformEvent]: delivery,
      [defaultTopicNames.metadataChangeLogTimeseries]: { retentionMs: 120_000, retentionBytes: -1 },
      [defaultTopicNames.proposalOutcome]: { retentionMs: 5000, retentionBytes: -1 },
      [defaultTopicNames.schemaRegistry]: { retentionMs: -1, retentionBytes: -1 },
      [defaultTopicNames.upgradeHistory]: { retentionMs: -1, retentionBytes: -1 },
    });
  });

  it('fails at start naming each bad variable', () => {
    const env = new EnvReader({
      CATALOG_LOG_RETENTION_MS: 'a week',
      CATALOG_LOG_RETENTION_BYTES: '-2',
      CATALOG_LOG_RETENTION_CHECK_INTERVAL_MS: '0',
      CATALOG_REQUEST_MAX_ROWS: '10',
    });
    readRetentionSettings(env);
    expect(() => env.finish()).toThrow(ConfigError);
    expect(() => env.finish()).toThrow(
      /CATALOG_LOG_RETENTION_MS.*CATALOG_LOG_RETENTION_BYTES.*CATALOG_LOG_RETENTION_CHECK_INTERVAL_MS.*CATALOG_REQUEST_MAX_ROWS/,
    );
  });
});
