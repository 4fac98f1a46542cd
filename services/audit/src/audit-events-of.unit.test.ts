import {
  defaultTopicNames,
  encodeMcl,
  encodePlatformEvent,
  SchemaIds,
  type LogRecord,
  type MetadataChangeLog,
} from '@catalog/events';
import { describe, expect, it } from 'vitest';
import { auditEventOf, type AuditRecordResult } from './audit-events-of.js';

const topics = defaultTopicNames;
const USER = 'urn:li:corpuser:jdoe';
const SYSTEM = 'urn:li:corpuser:__datahub_system';

function changeLog(overrides: Partial<MetadataChangeLog> = {}): MetadataChangeLog {
  return {
    entityType: 'corpuser',
    entityUrn: USER,
    changeType: 'UPSERT',
    aspectName: 'corpUserInfo',
    aspect: {
      value: Buffer.from(JSON.stringify({ active: true, displayName: 'J' })),
      contentType: 'application/json',
    },
    systemMetadata: {
      properties: {
        telemetryTraceId: '0af7651916cd43dd8448eb211c80319c',
        eventSource: 'OPENAPI',
        sourceIP: '10.0.0.7',
      },
    },
    created: { time: 1_700_000_000_123, actor: 'urn:li:corpuser:admin' },
    ...overrides,
  };
}

function record(
  value: Buffer,
  position: { topic?: string; partition?: number; offset?: string } = {},
  headers: Record<string, string> = {},
  timestamp = 1_600_000_000_000,
): LogRecord {
  return {
    topic: position.topic ?? topics.metadataChangeLogVersioned,
    partition: position.partition ?? 0,
    offset: position.offset ?? '42',
    key: USER,
    value,
    headers,
    timestamp,
  };
}

function eventOf(result: AuditRecordResult) {
  if (result.kind !== 'event') throw new Error(`expected an event, got ${JSON.stringify(result)}`);
  return result.event;
}

describe('audit events of change logs', () => {
  it('takes type, actor, time, entity, origin and user agent, and a raw document without aspect values', () => {
    const event = eventOf(
      auditEventOf(record(encodeMcl(changeLog()), {}, { requestId: 'req-1', userAgent: 'curl/8.5' }), topics),
    );
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
      eventType: 'UpdateUserEvent',
      timestamp: 1_700_000_000_123,
      actorUrn: 'urn:li:corpuser:admin',
      entityUrn: USER,
      entityType: 'corpuser',
      aspectName: 'corpUserInfo',
      eventSource: 'OPENAPI',
      sourceIP: '10.0.0.7',
      userAgent: 'curl/8.5',
      telemetryTraceId: '0af7651916cd43dd8448eb211c80319c',
      rawUsageEvent: {
        type: 'UpdateUserEvent',
        timestamp: 1_700_000_000_123,
        actorUrn: 'urn:li:corpuser:admin',
        entityUrn: USER,
        entityType: 'corpuser',
        aspectName: 'corpUserInfo',
        eventSource: 'OPENAPI',
        sourceIP: '10.0.0.7',
        userAgent: 'curl/8.5',
        traceId: '0af7651916cd43dd8448eb211c80319c',
        usageSource: 'backend',
      },
    });
    expect(JSON.stringify(event)).not.toContain('displayName');
  });

  it.each([
    [
      'corpUserCredentials',
      USER,
      { salt: 'MARK-salt', hashedPassword: 'MARK-hash', passwordResetToken: 'MARK-reset' },
    ],
    [
      'dataHubSecretValue',
      'urn:li:dataHubSecret:db',
      { name: 'db', value: 'MARK-encrypted', description: 'x' },
    ],
    ['inviteToken', 'urn:li:inviteToken:abc', { token: 'MARK-token' }],
  ] as const)(
    'keeps nothing of a restricted %s value, new or previous, in the event or its raw document',
    (aspectName, entityUrn, value) => {
      const aspect = (v: Record<string, unknown>) => ({
        value: Buffer.from(JSON.stringify(v)),
        contentType: 'application/json',
      });
      const mcl = changeLog({
        entityUrn,
        entityType: entityUrn.split(':')[2]!,
        aspectName,
        aspect: aspect(value),
        previousAspectValue: aspect(value),
      });
      const event = eventOf(auditEventOf(record(encodeMcl(mcl)), topics));
      expect(event.aspectName).toBe(aspectName);
      expect(JSON.stringify(event)).not.toContain('MARK');
    },
  );

  it('falls back to the record time and the system actor, and omits what is missing or unknown', () => {
    const mcl: MetadataChangeLog = {
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      changeType: 'DELETE',
      aspectName: 'datasetKey',
      systemMetadata: { properties: { eventSource: 'SOMETHING_INTERNAL' } },
    };
    const event = eventOf(auditEventOf(record(encodeMcl(mcl), {}, {}, 1_650_000_000_000), topics));
    expect(event).toEqual({
      id: expect.any(String),
      eventType: 'DeleteEntityEvent',
      timestamp: 1_650_000_000_000,
      actorUrn: SYSTEM,
      entityUrn: mcl.entityUrn,
      entityType: 'dataset',
      aspectName: 'datasetKey',
      rawUsageEvent: {
        type: 'DeleteEntityEvent',
        timestamp: 1_650_000_000_000,
        actorUrn: SYSTEM,
        entityUrn: mcl.entityUrn,
        entityType: 'dataset',
        aspectName: 'datasetKey',
        usageSource: 'backend',
      },
    });
  });

  it('reads the time-series topic too (its own schema id)', () => {
    const mcl = changeLog({ entityType: 'dataset', aspectName: 'datasetProfile' });
    const event = eventOf(
      auditEventOf(
        record(encodeMcl(mcl, SchemaIds.metadataChangeLogTimeseries), {
          topic: topics.metadataChangeLogTimeseries,
        }),
        topics,
      ),
    );
    expect(event.eventType).toBe('UpdateAspectEvent');
    expect(event.aspectName).toBe('datasetProfile');
  });

  it.each(['RESTLI', 'OPENAPI', 'GRAPHQL', 'SSO_SCIM'])('keeps eventSource %s', (eventSource) => {
    const mcl = changeLog({ systemMetadata: { properties: { eventSource } } });
    expect(eventOf(auditEventOf(record(encodeMcl(mcl)), topics)).eventSource).toBe(eventSource);
  });

  describe('ids', () => {
    const value = encodeMcl(changeLog());
    const idOf = (r: LogRecord) => eventOf(auditEventOf(r, topics)).id;

    it('a redelivered record gives the same id', () => {
      expect(idOf(record(value, { offset: '7' }))).toBe(idOf(record(value, { offset: '7' })));
      expect(idOf(record(value, { offset: '7' }, { requestId: 'r' }))).toBe(
        idOf(record(value, { offset: '7' }, { requestId: 'r' })),
      );
    });

    it('the same request id at another position gives the same id (a change log produced again)', () => {
      expect(idOf(record(value, { offset: '7' }, { requestId: 'req-9' }))).toBe(
        idOf(record(value, { offset: '1007', partition: 2 }, { requestId: 'req-9' }, 1_234)),
      );
    });

    it('without a request id, another position is another event', () => {
      expect(idOf(record(value, { offset: '7' }))).not.toBe(idOf(record(value, { offset: '8' })));
      expect(idOf(record(value, { partition: 0 }))).not.toBe(idOf(record(value, { partition: 1 })));
    });

    it('another aspect, entity or change type of the same request is another event', () => {
      const base = idOf(record(value, {}, { requestId: 'req-9' }));
      const other = (mcl: MetadataChangeLog) => idOf(record(encodeMcl(mcl), {}, { requestId: 'req-9' }));
      expect(other(changeLog({ aspectName: 'corpUserKey' }))).not.toBe(base);
      expect(other(changeLog({ entityUrn: 'urn:li:corpuser:other' }))).not.toBe(base);
      expect(other(changeLog({ changeType: 'DELETE' }))).not.toBe(base);
      expect(other(changeLog({ created: { time: 5, actor: 'urn:li:corpuser:x' } }))).toBe(base);
    });

    it('another request id is another event', () => {
      expect(idOf(record(value, {}, { requestId: 'a' }))).not.toBe(
        idOf(record(value, {}, { requestId: 'b' })),
      );
    });
  });

  it('reports an undecodable change log', () => {
    const result = auditEventOf(record(Buffer.from('not avro')), topics);
    expect(result.kind).toBe('undecodable');
  });
});

describe('audit events of platform events', () => {
  const at = 1_700_000_500_000;
  function platform(
    name: string,
    payload: unknown,
    options: { raw?: string; offset?: string } = {},
  ): LogRecord {
    return record(
      encodePlatformEvent({
        header: { timestampMillis: at - 1 },
        name,
        payload: {
          value: Buffer.from(options.raw ?? JSON.stringify(payload)),
          contentType: 'application/json',
        },
      }),
      { topic: topics.platformEvent, offset: options.offset ?? '3' },
      {},
      at - 2,
    );
  }
  const login = {
    eventId: '0b8a7c9e-3f52-4d6b-9b1a-3f3c2b1d9e11',
    type: 'LogInEvent',
    timestamp: at,
    actorUrn: USER,
    sourceIP: '192.168.1.4, 10.0.0.1',
    userAgent: 'Mozilla/5.0',
    eventSource: 'GRAPHQL',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    loginSource: 'passwordLogin',
  };

  it('a LogInEvent: the payload’s fields, its event id, the payload as the raw event', () => {
    expect(eventOf(auditEventOf(platform('LogInEvent', login), topics))).toEqual({
      id: login.eventId,
      eventType: 'LogInEvent',
      timestamp: at,
      actorUrn: USER,
      sourceIP: '192.168.1.4, 10.0.0.1',
      userAgent: 'Mozilla/5.0',
      eventSource: 'GRAPHQL',
      telemetryTraceId: login.traceId,
      loginSource: 'passwordLogin',
      rawUsageEvent: { ...login, usageSource: 'backend' },
    });
  });

  it('a FailedLogInEvent keeps its denial reason', () => {
    const failed = { ...login, type: 'FailedLogInEvent', loginDenialReason: 'BAD_CREDENTIALS' };
    const event = eventOf(auditEventOf(platform('FailedLogInEvent', failed), topics));
    expect(event.eventType).toBe('FailedLogInEvent');
    expect(event.loginDenialReason).toBe('BAD_CREDENTIALS');
    expect(event.loginSource).toBe('passwordLogin');
  });

  it('without an event id: an id from the position (stable on redelivery); time from the header', () => {
    const { eventId: _eventId, timestamp: _timestamp, ...older } = login;
    const a = eventOf(auditEventOf(platform('LogInEvent', older, { offset: '11' }), topics));
    const b = eventOf(auditEventOf(platform('LogInEvent', older, { offset: '11' }), topics));
    const c = eventOf(auditEventOf(platform('LogInEvent', older, { offset: '12' }), topics));
    expect(a.id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.id).toBe(a.id);
    expect(c.id).not.toBe(a.id);
    expect(a.timestamp).toBe(at - 1);
  });

  it('ignores other platform events', () => {
    expect(auditEventOf(platform('entityChangeEvent', { entityUrn: USER }), topics)).toEqual({
      kind: 'ignored',
    });
  });

  it('skips a login payload that is not a JSON object, or has no actor', () => {
    for (const raw of ['not json', '[1,2]', '"text"', 'null', '42']) {
      expect(auditEventOf(platform('LogInEvent', undefined, { raw }), topics).kind, raw).toBe('invalid');
    }
    const { actorUrn: _actorUrn, ...anonymous } = login;
    expect(auditEventOf(platform('LogInEvent', anonymous), topics).kind).toBe('invalid');
  });

  it('ignores records of other topics and reports an undecodable platform event', () => {
    expect(auditEventOf(record(Buffer.from('x'), { topic: 'SomethingElse_v1' }), topics).kind).toBe(
      'ignored',
    );
    expect(auditEventOf(record(Buffer.from('x'), { topic: topics.platformEvent }), topics).kind).toBe(
      'undecodable',
    );
  });
});
