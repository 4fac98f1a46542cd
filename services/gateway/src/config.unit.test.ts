import { readFileSync } from 'node:fs';
import { PINNED_SDK_VERSION } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { readGatewayConfig } from './config.js';

describe('gateway configuration: CORS_ALLOWED_ORIGINS', () => {
  it('is empty by default and lists the origins given', () => {
    expect(readGatewayConfig({}).http.corsAllowedOrigins).toEqual([]);
    expect(
      readGatewayConfig({ CORS_ALLOWED_ORIGINS: 'https://ui.example.com, http://localhost:3000' }).http
        .corsAllowedOrigins,
    ).toEqual(['https://ui.example.com', 'http://localhost:3000']);
  });

  it.each(['*', 'https://ui.example.com/', 'https://ui.example.com/app', 'ui.example.com', 'file://x'])(
    'refuses %s at start, naming the variable',
    (value) => {
      expect(() => readGatewayConfig({ CORS_ALLOWED_ORIGINS: value })).toThrow(/CORS_ALLOWED_ORIGINS/);
    },
  );
});

describe('gateway configuration: UI_INGESTION_DEFAULT_CLI_VERSION', () => {
  it('is the pinned acryl-datahub release by default, the one the SDK set-up installs', () => {
    const script = readFileSync(new URL('../../../infra/local/python-sdk.sh', import.meta.url), 'utf8');
    const pinned = /^DATAHUB_VERSION=(\S+)$/m.exec(script)?.[1];
    expect(pinned).toBeDefined();
    expect(PINNED_SDK_VERSION).toBe(pinned);
    expect(readGatewayConfig({}).http.defaultCliVersion).toBe(pinned);
  });

  it('takes a release or a short commit given', () => {
    expect(readGatewayConfig({ UI_INGESTION_DEFAULT_CLI_VERSION: '1.2.0.3' }).http.defaultCliVersion).toBe(
      '1.2.0.3',
    );
    expect(readGatewayConfig({ UI_INGESTION_DEFAULT_CLI_VERSION: 'abc1234' }).http.defaultCliVersion).toBe(
      'abc1234',
    );
  });

  it.each(['@cliVersion@', 'latest', '1', 'v1.2.0'])('refuses %s at start, naming the variable', (value) => {
    expect(() => readGatewayConfig({ UI_INGESTION_DEFAULT_CLI_VERSION: value })).toThrow(
      /UI_INGESTION_DEFAULT_CLI_VERSION/,
    );
  });
});

describe('gateway configuration: DATAHUB_ANALYTICS_ENABLED', () => {
  it('serves analytics unless turned off', () => {
    expect(readGatewayConfig({}).http.analyticsEnabled).toBe(true);
    expect(readGatewayConfig({ DATAHUB_ANALYTICS_ENABLED: 'false' }).http.analyticsEnabled).toBe(false);
    expect(() => readGatewayConfig({ DATAHUB_ANALYTICS_ENABLED: 'maybe' })).toThrow(
      /DATAHUB_ANALYTICS_ENABLED/,
    );
  });
});

describe('gateway configuration: DATAHUB_OPENLINEAGE_*', () => {
  it('has the ecosystem defaults', () => {
    expect(readGatewayConfig({}).http.openLineage).toEqual({
      materializeDataset: true,
      includeSchemaMetadata: true,
      captureColumnLevelLineage: true,
      usePatch: false,
    });
  });

  it('reads every setting, an environment in any case', () => {
    expect(
      readGatewayConfig({
        DATAHUB_OPENLINEAGE_ENV: 'dev',
        DATAHUB_OPENLINEAGE_ORCHESTRATOR: 'dagster',
        DATAHUB_OPENLINEAGE_PIPELINE_NAME: 'nightly',
        DATAHUB_OPENLINEAGE_PLATFORM_INSTANCE: 'eu-1',
        DATAHUB_OPENLINEAGE_COMMON_DATASET_ENV: 'QA',
        DATAHUB_OPENLINEAGE_COMMON_DATASET_PLATFORM_INSTANCE: 'warehouse',
        DATAHUB_OPENLINEAGE_PLATFORM: 'custom',
        DATAHUB_OPENLINEAGE_MATERIALIZE_DATASET: 'false',
        DATAHUB_OPENLINEAGE_INCLUDE_SCHEMA_METADATA: 'false',
        DATAHUB_OPENLINEAGE_CAPTURE_COLUMN_LEVEL_LINEAGE: 'false',
        DATAHUB_OPENLINEAGE_USE_PATCH: 'true',
        DATAHUB_OPENLINEAGE_FILE_PARTITION_REGEXP_PATTERN: '/dt=.*',
      }).http.openLineage,
    ).toEqual({
      env: 'DEV',
      orchestrator: 'dagster',
      pipelineName: 'nightly',
      platformInstance: 'eu-1',
      commonDatasetEnv: 'QA',
      commonDatasetPlatformInstance: 'warehouse',
      platform: 'custom',
      filePartitionPattern: '/dt=.*',
      materializeDataset: false,
      includeSchemaMetadata: false,
      captureColumnLevelLineage: false,
      usePatch: true,
    });
  });

  it('refuses an unknown environment or a pattern that does not compile, naming the variable', () => {
    expect(() => readGatewayConfig({ DATAHUB_OPENLINEAGE_ENV: 'STAGING' })).toThrow(
      /DATAHUB_OPENLINEAGE_ENV/,
    );
    expect(() => readGatewayConfig({ DATAHUB_OPENLINEAGE_COMMON_DATASET_ENV: 'x' })).toThrow(
      /DATAHUB_OPENLINEAGE_COMMON_DATASET_ENV/,
    );
    expect(() => readGatewayConfig({ DATAHUB_OPENLINEAGE_FILE_PARTITION_REGEXP_PATTERN: '(' })).toThrow(
      /DATAHUB_OPENLINEAGE_FILE_PARTITION_REGEXP_PATTERN/,
    );
  });
});

describe('gateway configuration: GRAPHQL_SUBSCRIPTION_*', () => {
  it('has defaults and takes the values given', () => {
    expect(readGatewayConfig({}).http.subscriptions).toEqual({
      heartbeatMs: 15_000,
      maxBufferedEvents: 1_000,
      maxStreamsPerUser: 5,
    });
    expect(
      readGatewayConfig({
        GRAPHQL_SUBSCRIPTION_HEARTBEAT_MS: '500',
        GRAPHQL_SUBSCRIPTION_BUFFER_EVENTS: '20',
        GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER: '2',
      }).http.subscriptions,
    ).toEqual({ heartbeatMs: 500, maxBufferedEvents: 20, maxStreamsPerUser: 2 });
  });

  it.each([
    ['GRAPHQL_SUBSCRIPTION_HEARTBEAT_MS', '0'],
    ['GRAPHQL_SUBSCRIPTION_BUFFER_EVENTS', 'lots'],
    ['GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER', '0'],
  ])('refuses %s=%s at start, naming the variable', (name, value) => {
    expect(() => readGatewayConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
