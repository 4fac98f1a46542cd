import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultTopicNames,
  encodeMcl,
  encodePlatformEvent,
  openEmbeddedEventLog,
  SchemaIds,
  type EventLog,
  type MetadataChangeLog,
  type ProduceRecord,
} from '@catalog/events';
import { CHANGE_LOG_HEADERS, DEAD_LETTER_HEADERS, deadLetterTopicOf } from '@catalog/runtime';
import { openSqliteAuditIndex, type AuditEvent, type AuditIndex } from '@catalog/search';
import { readTopic, waitFor } from '@catalog/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAuditConsumer, type AuditConsumer, type AuditConsumerDeps } from './audit-service.js';
import { capturingLogger } from '@catalog/testkit';

const topics = defaultTopicNames;
const DAY = 86_400_000;
const SYSTEM = 'urn:li:corpuser:__datahub_system';
const ADMIN = 'urn:li:corpuser:admin';

function changeLog(
  urn: string,
  aspectName: string,
  time: number,
  overrides: Partial<MetadataChangeLog> = {},
) {
  const mcl: MetadataChangeLog = {
    entityType: urn.startsWith('urn:li:corpuser:') ? 'corpuser' : 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: Buffer.from('{}'), contentType: 'application/json' },
    systemMetadata: {
      properties: { eventSource: 'OPENAPI', sourceIP: '10.1.2.3', telemetryTraceId: 'ab'.repeat(16) },
    },
    created: { time, actor: SYSTEM },
    ...overrides,
  };
  return mcl;
}

function mclRecord(
  mcl: MetadataChangeLog,
  headers: Record<string, string>,
  schemaId?: number,
): ProduceRecord {
  return { key: mcl.entityUrn ?? '', value: encodeMcl(mcl, schemaId), headers };
}

function platformRecord(name: string, payload: unknown, time: number, raw?: string): ProduceRecord {
  return {
    key: 'actor',
    value: encodePlatformEvent({
      header: { timestampMillis: time },
      name,
      payload: { value: Buffer.from(raw ?? JSON.stringify(payload)), contentType: 'application/json' },
    }),
    timestamp: time,
  };
}

async function everything(audit: AuditIndex): Promise<{ total: number; events: readonly AuditEvent[] }> {
  const page = await audit.search({ startTime: 0, endTime: Date.now() + DAY, size: 1000 });
  return { total: page.total, events: page.events };
}

/** Whether the group has read every record of the three topics. */
async function caughtUp(log: EventLog, groupId: string): Promise<boolean> {
  for (const topic of [
    topics.metadataChangeLogVersioned,
    topics.metadataChangeLogTimeseries,
    topics.platformEvent,
  ]) {
    const lag = await log.lag(groupId, topic);
    if (lag.some((p) => p.lag > 0)) return false;
  }
  return true;
}

describe('the audit consumer over the embedded log', () => {
  let dir: string;
  let log: EventLog;
  let audit: AuditIndex;
  const running: AuditConsumer[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-consumer-'));
    log = await openEmbeddedEventLog({ directory: dir, pollIntervalMs: 20, retryInitialMs: 20 });
    audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite'), retentionDays: 30 });
  });
  afterEach(async () => {
    for (const consumer of running.splice(0)) await consumer.stop();
    await log.close();
    await audit.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(deps: Partial<AuditConsumerDeps> & Pick<AuditConsumerDeps, 'logger' | 'groupId'>) {
    const consumer = await startAuditConsumer({ log, audit, topics, maxBatchSize: 100, ...deps });
    running.push(consumer);
    await consumer.ready;
    return consumer;
  }

  it('records change logs and logins once, skips what is not an audit event, and a replay doubles nothing', async () => {
    const { logger, lines } = capturingLogger('debug');
    const now = Date.now();
    const user = `urn:li:corpuser:u_${randomUUID().slice(0, 8)}`;
    const dataset = `urn:li:dataset:(urn:li:dataPlatform:hive,db.t_${randomUUID().slice(0, 8)},PROD)`;
    const signUp = {
      [CHANGE_LOG_HEADERS.requestId]: 'req-signup',
      [CHANGE_LOG_HEADERS.userAgent]: 'Mozilla/5.0',
    };
    const versioned = [
      mclRecord(changeLog(user, 'corpUserKey', now - 3_000), signUp),
      mclRecord(changeLog(user, 'corpUserInfo', now - 3_000), signUp),
      mclRecord(
        changeLog(dataset, 'datasetKey', now - 2_000, {
          changeType: 'DELETE',
          created: { time: now - 2_000, actor: ADMIN },
        }),
        { [CHANGE_LOG_HEADERS.requestId]: 'req-delete' },
      ),
      { key: 'garbage', value: Buffer.from('not a change log') },
      // Persistence redelivered the sign-up proposal and produced its change log again: same request id.
      mclRecord(changeLog(user, 'corpUserInfo', now - 3_000), signUp),
    ];
    await log.ensureTopics([{ name: topics.metadataChangeLogVersioned }]);
    await log.produce(topics.metadataChangeLogVersioned, versioned);
    await log.produce(topics.metadataChangeLogTimeseries, [
      mclRecord(
        changeLog(dataset, 'datasetProfile', now - 1_500, { created: { time: now - 1_500, actor: ADMIN } }),
        {},
        SchemaIds.metadataChangeLogTimeseries,
      ),
    ]);
    const loginId = randomUUID();
    await log.produce(topics.platformEvent, [
      platformRecord(
        'LogInEvent',
        {
          eventId: loginId,
          type: 'LogInEvent',
          timestamp: now - 1_000,
          actorUrn: user,
          sourceIP: '192.168.0.9',
          userAgent: 'curl/8.5',
          eventSource: 'GRAPHQL',
          traceId: 'cd'.repeat(16),
          loginSource: 'passwordLogin',
        },
        now - 1_000,
      ),
      // An older record without an event id.
      platformRecord(
        'FailedLogInEvent',
        {
          type: 'FailedLogInEvent',
          timestamp: now - 500,
          actorUrn: user,
          loginSource: 'passwordLogin',
          loginDenialReason: 'BAD_CREDENTIALS',
        },
        now - 500,
      ),
      platformRecord('entityChangeEvent', { entityUrn: dataset }, now - 400),
      platformRecord('LogInEvent', undefined, now - 300, 'this is not json'),
    ]);

    await start({ logger, groupId: 'audit-it-1' });
    await waitFor(async () => (await caughtUp(log, 'audit-it-1')) && (await everything(audit)).total >= 6);
    const { total, events } = await everything(audit);
    expect(total).toBe(6);
    const byType = (type: string, aspect?: string) =>
      events.filter((e) => e.eventType === type && (aspect === undefined || e.aspectName === aspect));

    expect(byType('CreateUserEvent')).toEqual([
      expect.objectContaining({
        actorUrn: SYSTEM,
        entityUrn: user,
        entityType: 'corpuser',
        aspectName: 'corpUserKey',
        timestamp: now - 3_000,
        eventSource: 'OPENAPI',
        sourceIP: '10.1.2.3',
        userAgent: 'Mozilla/5.0',
        telemetryTraceId: 'ab'.repeat(16),
      }),
    ]);
    expect(byType('UpdateUserEvent', 'corpUserInfo')).toHaveLength(1);
    expect(byType('DeleteEntityEvent')).toEqual([
      expect.objectContaining({ actorUrn: ADMIN, entityUrn: dataset, aspectName: 'datasetKey' }),
    ]);
    expect(byType('DeleteEntityEvent')[0]).not.toHaveProperty('userAgent');
    expect(byType('UpdateAspectEvent', 'datasetProfile')).toEqual([
      expect.objectContaining({ actorUrn: ADMIN, entityType: 'dataset', timestamp: now - 1_500 }),
    ]);
    expect(byType('LogInEvent')).toEqual([
      expect.objectContaining({
        id: loginId,
        actorUrn: user,
        timestamp: now - 1_000,
        sourceIP: '192.168.0.9',
        userAgent: 'curl/8.5',
        eventSource: 'GRAPHQL',
        telemetryTraceId: 'cd'.repeat(16),
        loginSource: 'passwordLogin',
        rawUsageEvent: expect.objectContaining({ eventId: loginId, usageSource: 'backend' }),
      }),
    ]);
    expect(byType('FailedLogInEvent')).toEqual([
      expect.objectContaining({
        actorUrn: user,
        timestamp: now - 500,
        loginSource: 'passwordLogin',
        loginDenialReason: 'BAD_CREDENTIALS',
      }),
    ]);

    // What cannot be an audit event is dead-lettered with its reason, not skipped in silence.
    const letters = await readTopic(log, deadLetterTopicOf('audit-it-1'), 2);
    const origins = letters.map(
      (l) => `${l.headers[DEAD_LETTER_HEADERS.topic]} ${l.headers[DEAD_LETTER_HEADERS.failureClass]}`,
    );
    expect(origins.sort()).toEqual(
      [`${topics.metadataChangeLogVersioned} deterministic`, `${topics.platformEvent} deterministic`].sort(),
    );
    expect(letters.map((l) => l.headers[DEAD_LETTER_HEADERS.error]).join('\n')).toMatch(/Undecodable record/);
    expect(letters.map((l) => l.headers[DEAD_LETTER_HEADERS.error]).join('\n')).toMatch(
      /Not a usable audit event/,
    );
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'record dead-lettered; the partition moves on' }),
    );

    // A replay from the start under a new group writes the same events again, not new ones.
    await running.pop()!.stop();
    const rewritten: string[] = [];
    const counting: AuditIndex = {
      ensure: () => audit.ensure(),
      search: (q) => audit.search(q),
      count: (q) => audit.count(q),
      refresh: () => audit.refresh(),
      ping: () => audit.ping(),
      applyRetention: (at) => audit.applyRetention(at),
      close: () => audit.close(),
      write: async (batch) => {
        rewritten.push(...batch.map((e) => e.id));
        await audit.write(batch);
      },
    };
    await start({ logger, groupId: 'audit-it-2', audit: counting });
    await waitFor(() => caughtUp(log, 'audit-it-2'));
    // Every record was read again: the re-produced change log twice, under the same id.
    expect(rewritten).toHaveLength(7);
    expect(new Set(rewritten).size).toBe(6);
    const again = await everything(audit);
    expect(again.total).toBe(6);
    expect(again.events.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it('drops filtered types and actors, redelivers a batch whose write failed, and applies retention', async () => {
    const { logger, lines } = capturingLogger('debug');
    const now = Date.now();
    const user = `urn:li:corpuser:u_${randomUUID().slice(0, 8)}`;
    // An event 40 days old: its day is past the 30 days of retention, so the start drops it.
    await audit.ensure();
    await audit.write([
      { id: 'old', eventType: 'LogInEvent', timestamp: now - 40 * DAY, actorUrn: user, rawUsageEvent: {} },
    ]);
    expect((await everything(audit)).total).toBe(1);

    let failures = 1;
    const flaky: AuditIndex = {
      ensure: () => audit.ensure(),
      search: (q) => audit.search(q),
      count: (q) => audit.count(q),
      refresh: () => audit.refresh(),
      ping: () => audit.ping(),
      applyRetention: (at) => audit.applyRetention(at),
      close: () => audit.close(),
      write: async (events) => {
        // The index unreachable (transient): the whole batch is redelivered, nothing set aside.
        if (failures-- > 0) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        await audit.write(events);
      },
    };
    await log.produce(topics.metadataChangeLogVersioned, [
      mclRecord(changeLog(user, 'corpUserKey', now - 100), { requestId: 'r1' }),
      mclRecord(changeLog(user, 'corpUserInfo', now - 100), { requestId: 'r1' }),
      mclRecord(changeLog(user, 'status', now - 90, { created: { time: now - 90, actor: ADMIN } }), {
        requestId: 'r2',
      }),
      mclRecord(changeLog(user, 'corpUserStatus', now - 80, { created: { time: now - 80, actor: ADMIN } }), {
        requestId: 'r3',
      }),
    ]);
    const consumer = await startAuditConsumer({
      log,
      audit: flaky,
      topics,
      logger,
      groupId: 'audit-filters',
      maxBatchSize: 100,
      recordedEventTypes: new Set(['UpdateUserEvent', 'UpdateAspectEvent', 'LogInEvent']),
      actorFilters: new Set([SYSTEM]),
    });
    running.push(consumer);
    await consumer.ready;
    await waitFor(
      async () => (await caughtUp(log, 'audit-filters')) && (await everything(audit)).total === 2,
    );
    const { events } = await everything(audit);
    // corpUserKey (CreateUserEvent) is not recorded; the system user's corpUserInfo is filtered out.
    expect(events.map((e) => `${e.eventType}:${e.aspectName}`).sort()).toEqual([
      'UpdateAspectEvent:status',
      'UpdateUserEvent:corpUserStatus',
    ]);
    expect(events.some((e) => e.id === 'old')).toBe(false);
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'audit batch failed; it will be redelivered' }),
    );
  });
});
