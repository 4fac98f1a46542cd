import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit/audit-index.js';
import {
  auditIdHash,
  decodeAuditRow,
  decodeRaw,
  encodeAuditRow,
  encodeRaw,
  packHex,
} from './sqlite-audit-row.js';

const T = Date.UTC(2026, 0, 15, 12);
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)';

/** What the audit consumer builds for a change log: the raw event repeats the event's fields. */
const changeEvent: AuditEvent = {
  id: 'a10b34eac6599cbe3c316b2f00e61d6876416425406d712dedc0f79df7b36ed4',
  eventType: 'UpdateAspectEvent',
  timestamp: T,
  actorUrn: 'urn:li:corpuser:datahub',
  entityUrn: URN,
  entityType: 'dataset',
  aspectName: 'datasetProperties',
  eventSource: 'RESTLI',
  sourceIP: '127.0.0.1',
  userAgent: 'python-requests/2.31.0',
  telemetryTraceId: '5d4d5715af4844a88b6d5d6faf4f4a6f',
  rawUsageEvent: {
    type: 'UpdateAspectEvent',
    timestamp: T,
    actorUrn: 'urn:li:corpuser:datahub',
    entityUrn: URN,
    entityType: 'dataset',
    aspectName: 'datasetProperties',
    eventSource: 'RESTLI',
    sourceIP: '127.0.0.1',
    userAgent: 'python-requests/2.31.0',
    traceId: '5d4d5715af4844a88b6d5d6faf4f4a6f',
    usageSource: 'backend',
  },
};

/** What it builds for a login: the gateway's payload, its own key order, plus usageSource. */
const loginEvent: AuditEvent = {
  id: '0b7c4a4e-9a51-4d0e-8f55-0d2f3c1a7e11',
  eventType: 'FailedLogInEvent',
  timestamp: T,
  actorUrn: 'urn:li:corpuser:bob',
  sourceIP: '10.0.0.1, 10.0.0.2',
  userAgent: 'Mozilla/5.0',
  telemetryTraceId: '0123456789abcdef0123456789abcdef',
  loginSource: 'passwordLogin',
  loginDenialReason: 'BAD_PASSWORD',
  rawUsageEvent: {
    eventId: '0b7c4a4e-9a51-4d0e-8f55-0d2f3c1a7e11',
    type: 'FailedLogInEvent',
    timestamp: T,
    actorUrn: 'urn:li:corpuser:bob',
    sourceIP: '10.0.0.1, 10.0.0.2',
    userAgent: 'Mozilla/5.0',
    eventSource: 'SOMETHING_ELSE',
    traceId: '0123456789abcdef0123456789abcdef',
    loginSource: 'passwordLogin',
    loginDenialReason: 'BAD_PASSWORD',
    usageSource: 'backend',
  },
};

const roundTrip = (event: AuditEvent) => decodeRaw(encodeRaw(event), event);

describe('audit rows', () => {
  it("keeps a change log's raw event as one small integer of references", () => {
    const stored = encodeRaw(changeEvent);
    expect(typeof stored).toBe('number');
    expect(stored).toBeLessThan(2 ** 15);
    expect(roundTrip(changeEvent)).toStrictEqual(changeEvent.rawUsageEvent);
    expect(Object.keys(roundTrip(changeEvent))).toEqual(Object.keys(changeEvent.rawUsageEvent));
  });

  it('keeps a raw event in another key order, or with values of its own, as JSON, order and values intact', () => {
    const stored = encodeRaw(loginEvent);
    expect(typeof stored).toBe('string');
    // Only what the event does not already hold is spelled out.
    expect(stored).not.toContain('urn:li:corpuser:bob');
    expect(stored).toContain('SOMETHING_ELSE');
    expect(roundTrip(loginEvent)).toStrictEqual(loginEvent.rawUsageEvent);
    expect(Object.keys(roundTrip(loginEvent))).toEqual(Object.keys(loginEvent.rawUsageEvent));

    const odd: AuditEvent = {
      ...changeEvent,
      rawUsageEvent: JSON.parse(
        '{"__proto__": {"x": 1}, "type": "Other", "timestamp": "1", "nested": {"list": [1, "two", null]}, "n": 1.5, "gone": null}',
      ) as Record<string, unknown>,
    };
    const decoded = roundTrip(odd);
    expect(decoded).toStrictEqual(odd.rawUsageEvent);
    expect(Object.keys(decoded)).toEqual(['__proto__', 'type', 'timestamp', 'nested', 'n', 'gone']);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
  });

  it('drops raw values JSON cannot hold, as the JSON document did', () => {
    const event = { ...changeEvent, rawUsageEvent: { a: undefined, b: 1, usageSource: 'backend' } };
    expect(roundTrip(event)).toStrictEqual({ b: 1, usageSource: 'backend' });
    expect(roundTrip({ ...changeEvent, rawUsageEvent: {} })).toStrictEqual({});
  });

  it('stores lowercase hex as its bytes and any other string as itself', () => {
    expect(packHex('0f')).toEqual(Buffer.from([0x0f]));
    expect(packHex(changeEvent.id)).toHaveLength(32);
    for (const text of ['0F', 'abc', 'bench-1', '', 'zz']) expect(packHex(text)).toBe(text);
  });

  it("keeps each string the day repeats as a term code, the request's client as one, and the urn without its entity type prefix", () => {
    const terms: string[] = [];
    const row = encodeAuditRow(changeEvent, (value) => {
      const known = terms.indexOf(value);
      return known >= 0 ? known + 1 : terms.push(value);
    });
    expect(terms).toEqual([
      'UpdateAspectEvent',
      'urn:li:corpuser:datahub',
      'dataset',
      'datasetProperties',
      '["python-requests/2.31.0","RESTLI"]',
    ]);
    expect(row.entity_urn).toBe('(urn:li:dataPlatform:hive,sales.orders,PROD)');
    expect(row.source_ip).toBe('127.0.0.1');
    expect(row.trace_id).toHaveLength(16);
    expect(encodeAuditRow({ ...changeEvent, entityType: 'chart' }, () => 1).entity_urn).toBe(URN);
  });

  it('reads back every event as written, whatever its urn and client', () => {
    const codes = new Map<string, number>();
    const term = (value: string) => codes.get(value) ?? (codes.set(value, codes.size + 1), codes.size);
    const value = (code: number | null) =>
      code === null ? null : [...codes].find(([, known]) => known === code)![0];
    const hexText = (value: string | Buffer | null) =>
      value === null || typeof value === 'string' ? value : value.toString('hex');
    const events: AuditEvent[] = [
      changeEvent,
      loginEvent,
      { ...changeEvent, entityUrn: 'urn:li:dataset:urn:li:odd' },
      { ...changeEvent, entityUrn: 'not an urn' },
      { ...changeEvent, entityUrn: '' },
      { ...changeEvent, entityType: 'chart' },
      { ...loginEvent, sourceIP: undefined, userAgent: undefined, loginSource: undefined },
      { id: 'x', eventType: 'LogInEvent', timestamp: T, actorUrn: '', rawUsageEvent: {} },
    ].map((event) => JSON.parse(JSON.stringify(event)) as AuditEvent);
    for (const event of events) {
      const row = encodeAuditRow(event, term);
      const stored = [
        hexText(row.id)!,
        row.ts,
        value(row.event_type)!,
        value(row.actor)!,
        value(row.entity_type),
        value(row.aspect),
        row.entity_urn,
        row.source_ip,
        value(row.client),
        hexText(row.trace_id),
        row.raw,
      ] as const;
      expect(decodeAuditRow(stored)).toStrictEqual(event);
    }
    expect(encodeAuditRow(events[2]!, term).entity_urn).toBe('urn:li:dataset:urn:li:odd');
    expect(encodeAuditRow(events[3]!, term).entity_urn).toEqual(Buffer.from('not an urn'));
  });

  it('hashes ids to 31 bits, the same way in every version (the hash is stored)', () => {
    expect(auditIdHash('a')).toBe(1913001110);
    expect(auditIdHash('UpdateUserEvent_urn:li:corpuser:bob_1')).toBe(1281949919);
    expect(auditIdHash('event-89073')).toBe(auditIdHash('event-218272'));
    for (const id of ['', 'x', changeEvent.id, '\u{1F600}'.repeat(40)]) {
      const hash = auditIdHash(id);
      expect(Number.isInteger(hash) && hash >= 0 && hash < 2 ** 31).toBe(true);
    }
  });
});
