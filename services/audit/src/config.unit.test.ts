import { ConfigError } from '@catalog/runtime';
import { describe, expect, it } from 'vitest';
import { AUDIT_EVENT_TYPES } from './audit-event-types.js';
import { readAuditConfig } from './config.js';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    readAuditConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('readAuditConfig', () => {
  it('defaults: group audit, batch 1000, 90 days, every event type, no actor filtered', () => {
    const config = readAuditConfig({});
    expect(config.groupId).toBe('audit');
    expect(config.maxBatchSize).toBe(1000);
    expect(config.retentionDays).toBe(90);
    expect([...config.recordedEventTypes].sort()).toEqual([...AUDIT_EVENT_TYPES].sort());
    expect(config.actorFilters.size).toBe(0);
    expect(config.logLevel).toBe('info');
  });

  it('waits up to 100 ms for fuller batches and runs at nice 10 unless AUDIT_BATCH_WAIT_MS and AUDIT_NICE say otherwise', () => {
    expect(readAuditConfig({})).toMatchObject({ batchWaitMs: 100, nice: 10 });
    expect(readAuditConfig({ AUDIT_BATCH_WAIT_MS: '0', AUDIT_NICE: '0' })).toMatchObject({
      batchWaitMs: 0,
      nice: 0,
    });
    expect(problemsOf({ AUDIT_BATCH_WAIT_MS: '-1', AUDIT_NICE: '20' })).toEqual([
      expect.stringContaining('AUDIT_BATCH_WAIT_MS'),
      expect.stringContaining('AUDIT_NICE'),
    ]);
  });

  it('reads AUDIT_GROUP_ID, AUDIT_MAX_BATCH, AUDIT_RETENTION_DAYS, AUDIT_EVENT_TYPES and ANALYTICS_USER_FILTERS', () => {
    const config = readAuditConfig({
      AUDIT_GROUP_ID: 'audit-replay',
      AUDIT_MAX_BATCH: '50',
      AUDIT_RETENTION_DAYS: '0',
      AUDIT_EVENT_TYPES: ' LogInEvent, CreateUserEvent ,,',
      ANALYTICS_USER_FILTERS: 'urn:li:corpuser:__datahub_system,urn:li:corpuser:bot',
    });
    expect(config.groupId).toBe('audit-replay');
    expect(config.maxBatchSize).toBe(50);
    expect(config.retentionDays).toBe(0);
    expect([...config.recordedEventTypes]).toEqual(['LogInEvent', 'CreateUserEvent']);
    expect([...config.actorFilters]).toEqual(['urn:li:corpuser:__datahub_system', 'urn:li:corpuser:bot']);
  });

  it('the default group follows a renamed change-log topic', () => {
    expect(readAuditConfig({ METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME: 'MCL_v2' }).groupId).toBe(
      'audit-MCL_v2',
    );
  });

  it('rejects an unknown event type, naming it', () => {
    const problems = problemsOf({ AUDIT_EVENT_TYPES: 'LogInEvent,LoginEvent,Bogus' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('AUDIT_EVENT_TYPES');
    expect(problems[0]).toContain('"LoginEvent"');
    expect(problems[0]).toContain('"Bogus"');
  });

  it('rejects a bad retention and actor filters that are not urns, with every other problem', () => {
    const problems = problemsOf({
      AUDIT_RETENTION_DAYS: '-1',
      ANALYTICS_USER_FILTERS: 'datahub',
      AUDIT_MAX_BATCH: '0',
    });
    expect(problems.some((p) => p.startsWith('AUDIT_RETENTION_DAYS'))).toBe(true);
    expect(problems.some((p) => p.startsWith('ANALYTICS_USER_FILTERS') && p.includes('"datahub"'))).toBe(
      true,
    );
    expect(problems.some((p) => p.startsWith('AUDIT_MAX_BATCH'))).toBe(true);
    expect(
      problemsOf({ AUDIT_RETENTION_DAYS: '36501' }).some((p) => p.startsWith('AUDIT_RETENTION_DAYS')),
    ).toBe(true);
    expect(problemsOf({ AUDIT_RETENTION_DAYS: 'ninety' })).toHaveLength(1);
  });
});
