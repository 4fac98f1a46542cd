import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-index.js';
import {
  auditDayOf,
  auditDayStart,
  auditEventMatches,
  compareAuditOrder,
  DAY_MS,
  dayExpired,
  dayOverlaps,
  normalizeAuditQuery,
  validateAuditEvent,
} from './audit-partitions.js';

describe('audit days', () => {
  it('names the UTC day of a timestamp and reads it back', () => {
    const t = Date.UTC(2026, 0, 5, 23, 59, 59, 999);
    expect(auditDayOf(t)).toBe('2026.01.05');
    expect(auditDayOf(t + 1)).toBe('2026.01.06');
    expect(auditDayOf(0)).toBe('1970.01.01');
    expect(auditDayOf(-1)).toBe('1969.12.31');
    expect(auditDayStart('2026.01.05')).toBe(Date.UTC(2026, 0, 5));
    expect(auditDayStart('2026.02.30')).toBeUndefined();
    expect(auditDayStart('2026.1.5')).toBeUndefined();
    expect(auditDayStart('v1')).toBeUndefined();
  });

  it('finds the days overlapping a half-open window', () => {
    const day = Date.UTC(2026, 0, 5);
    expect(dayOverlaps(day, day - 1, day)).toBe(false);
    expect(dayOverlaps(day, day - 1, day + 1)).toBe(true);
    expect(dayOverlaps(day, day + DAY_MS - 1, day + DAY_MS)).toBe(true);
    expect(dayOverlaps(day, day + DAY_MS, day + 2 * DAY_MS)).toBe(false);
  });

  it('expires a day only once all of it is older than the retention', () => {
    const day = Date.UTC(2026, 0, 5);
    const justAfter = day + DAY_MS + 30 * DAY_MS;
    expect(dayExpired(day, justAfter, 30)).toBe(true);
    expect(dayExpired(day, justAfter - 1, 30)).toBe(false);
    expect(dayExpired(day, justAfter + 1_000 * DAY_MS, 0)).toBe(false);
    expect(dayExpired(day, justAfter + 1_000 * DAY_MS, -1)).toBe(false);
  });
});

describe('audit order and matching', () => {
  const event = (id: string, timestamp: number, extra: Partial<AuditEvent> = {}): AuditEvent => ({
    id,
    timestamp,
    eventType: 'LogInEvent',
    actorUrn: 'urn:li:corpuser:a',
    rawUsageEvent: {},
    ...extra,
  });

  it('orders newest first, then by descending id in code point order', () => {
    const sorted = [event('a', 1), event('b', 2), event('\u{1F600}', 1), event('\uFF21', 1), event('B', 1)]
      .sort(compareAuditOrder)
      .map((e) => e.id);
    expect(sorted).toEqual(['b', '\u{1F600}', '\uFF21', 'a', 'B']);
  });

  it('matches the window, the cursor and the filters (AND across, OR within)', () => {
    const q = normalizeAuditQuery({
      startTime: 10,
      endTime: 20,
      size: 5,
      eventTypes: ['LogInEvent', 'LogInEvent', 'FailedLogInEvent'],
      entityTypes: [],
    });
    expect(q.eventTypes).toEqual(['LogInEvent', 'FailedLogInEvent']);
    expect(auditEventMatches(event('x', 10), q)).toBe(true);
    expect(auditEventMatches(event('x', 20), q)).toBe(false);
    expect(auditEventMatches(event('x', 9), q)).toBe(false);
    expect(auditEventMatches(event('x', 15, { eventType: 'UpdateUserEvent' }), q)).toBe(false);
    const byEntity = normalizeAuditQuery({ startTime: 0, endTime: 99, size: 1, entityTypes: ['corpuser'] });
    expect(auditEventMatches(event('x', 15), byEntity)).toBe(false);
    expect(auditEventMatches(event('x', 15, { entityType: 'corpuser' }), byEntity)).toBe(true);
    const after = normalizeAuditQuery({
      startTime: 0,
      endTime: 99,
      size: 1,
      after: { timestamp: 15, id: 'm' },
    });
    expect(auditEventMatches(event('m', 15), after)).toBe(false);
    expect(auditEventMatches(event('n', 15), after)).toBe(false);
    expect(auditEventMatches(event('l', 15), after)).toBe(true);
    expect(auditEventMatches(event('z', 14), after)).toBe(true);
    expect(auditEventMatches(event('a', 16), after)).toBe(false);
  });

  it('rejects bad queries and events', () => {
    expect(() => normalizeAuditQuery({ startTime: 0, endTime: 1, size: -1 })).toThrow(RangeError);
    expect(() => normalizeAuditQuery({ startTime: 0, endTime: 1, size: 1.5 })).toThrow(RangeError);
    expect(() => normalizeAuditQuery({ startTime: 0, endTime: 1, size: 10_001 })).toThrow(RangeError);
    expect(() => normalizeAuditQuery({ startTime: Number.NaN, endTime: 1, size: 1 })).toThrow(RangeError);
    expect(() => validateAuditEvent(event('', 1))).toThrow(TypeError);
    expect(() => validateAuditEvent(event('x', 1.5))).toThrow(TypeError);
    expect(() => validateAuditEvent(event('x', 1, { eventType: '' }))).toThrow(TypeError);
    expect(() => validateAuditEvent(event('x', 1))).not.toThrow();
  });
});
