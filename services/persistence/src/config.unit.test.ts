import { ConfigError } from '@catalog/runtime';
import { describe, expect, it } from 'vitest';
import { readPersistenceConfig } from './config.js';
import { DEFAULT_RETENTION_POLICIES } from './retention-policies.js';

describe('persistence config: structured property settings', () => {
  it('defaults to the ecosystem: drop orphans with a warning, 32766-byte keywords, refuse oversize values', () => {
    expect(readPersistenceConfig({}).structuredProperties).toEqual({
      dropMissingPropertyValuesWithWarning: true,
      keywordMaxLength: 32766,
      dropOversizedKeywordValuesFromIndex: false,
    });
  });

  it('reads the STRUCTURED_PROPERTIES_* variables', () => {
    const config = readPersistenceConfig({
      STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING: 'false',
      STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH: '8191',
      STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX: 'TRUE',
    });
    expect(config.structuredProperties).toEqual({
      dropMissingPropertyValuesWithWarning: false,
      keywordMaxLength: 8191,
      dropOversizedKeywordValuesFromIndex: true,
    });
    expect(config.groupId).toBeTruthy();
  });

  it('refuses invalid values at start, naming each variable', () => {
    const read = () =>
      readPersistenceConfig({
        STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING: 'sometimes',
        STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH: '0',
      });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(
      /STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING must be true or false.*STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH must be >= 1/,
    );
  });
});

describe('persistence config: health endpoints', () => {
  it('serves them on 8081 by default, on HEALTH_PORT when set, nowhere with 0', () => {
    expect(readPersistenceConfig({}).healthPort).toBe(8081);
    expect(readPersistenceConfig({ HEALTH_PORT: '9100' }).healthPort).toBe(9100);
    expect(readPersistenceConfig({ HEALTH_PORT: '0' }).healthPort).toBe(0);
    expect(() => readPersistenceConfig({ HEALTH_PORT: '70000' })).toThrow(/HEALTH_PORT/);
  });
});

describe('persistence config: batches and priority', () => {
  it('reads a record as soon as it is there and runs at normal priority by default', () => {
    expect(readPersistenceConfig({})).toMatchObject({ batchWaitMs: 0, nice: 0, maxBatchSize: 500 });
    expect(readPersistenceConfig({ PERSISTENCE_BATCH_WAIT_MS: '20', PERSISTENCE_NICE: '5' })).toMatchObject({
      batchWaitMs: 20,
      nice: 5,
    });
  });
});

describe('persistence config: retention of aspect histories', () => {
  it("is on by default, with the ecosystem's boot policies", () => {
    const { retention } = readPersistenceConfig({});
    expect(retention.enabled).toBe(true);
    expect(retention.refreshMs).toBe(60_000);
    expect(retention.defaults).toEqual(DEFAULT_RETENTION_POLICIES);
    expect(retention.defaults).toContainEqual({
      entity: 'dataHubExecutionRequest',
      aspect: 'dataHubExecutionRequestResult',
      retention: { version: { maxVersions: 1 } },
    });
    expect(retention.defaults).toContainEqual({
      entity: '*',
      aspect: '*',
      retention: { version: { maxVersions: 20 } },
    });
  });

  it('is off with ENTITY_SERVICE_ENABLE_RETENTION=false', () => {
    expect(readPersistenceConfig({ ENTITY_SERVICE_ENABLE_RETENTION: 'false' }).retention.enabled).toBe(false);
  });
});
