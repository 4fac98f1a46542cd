import { afterEach, describe, expect, it } from 'vitest';
import {
  AUDIT_TOTAL_CAP,
  type AuditCountField,
  type AuditCountQuery,
  type AuditEvent,
  type AuditIndex,
  type AuditInterval,
  type AuditQuery,
} from '@catalog/search';

export interface AuditIndexUnderTest {
  readonly audit: AuditIndex;
  cleanup(): Promise<void>;
}

export interface AuditIndexContractOptions {
  /** The retention (days) the adapter is opened with. */
  readonly retentionDays: number;
}

const DAY = 86_400_000;
/** Noon UTC of a fixed day: every test's events sit around it, in few day partitions. */
const T0 = Date.UTC(2026, 0, 15, 12);

/**
 * The behaviour every AuditIndex adapter must show; a fresh, empty index per test. Events are read newest
 * first (timestamp desc, then id desc) within [startTime, endTime), filtered AND across fields and OR
 * within one; a page resumes strictly after its cursor, `next` is set only while more events remain, and
 * `total` counts matches ignoring the cursor, up to AUDIT_TOTAL_CAP. An id written twice is one event
 * (the last write). Retention drops whole UTC days older than the retention and keeps younger ones.
 */
export function auditIndexContract(
  name: string,
  factory: (options: AuditIndexContractOptions) => Promise<AuditIndexUnderTest>,
): void {
  describe(`AuditIndex contract: ${name}`, () => {
    const opened: AuditIndexUnderTest[] = [];
    const open = async (retentionDays = 30): Promise<AuditIndex> => {
      const underTest = await factory({ retentionDays });
      opened.push(underTest);
      await underTest.audit.ensure();
      await underTest.audit.ensure();
      return underTest.audit;
    };
    afterEach(async () => {
      for (const underTest of opened.splice(0)) await underTest.cleanup();
    });

    it('answers ping', async () => {
      await expect((await open()).ping()).resolves.toBeUndefined();
    });

    const event = (id: string, timestamp: number, extra: Partial<AuditEvent> = {}): AuditEvent => ({
      id,
      eventType: 'UpdateAspectEvent',
      timestamp,
      actorUrn: 'urn:li:corpuser:alice',
      rawUsageEvent: { id, timestamp },
      ...extra,
    });
    const search = async (audit: AuditIndex, query: Partial<AuditQuery> = {}) => {
      await audit.refresh();
      return audit.search({ startTime: T0 - 30 * DAY, endTime: T0 + 30 * DAY, size: 100, ...query });
    };
    const ids = (events: readonly AuditEvent[]) => events.map((e) => e.id);

    it('returns every field written, and absent optional fields stay absent', async () => {
      const audit = await open();
      const full: AuditEvent = {
        id: 'UpdateUserEvent_urn:li:corpuser:bob_1',
        eventType: 'UpdateUserEvent',
        timestamp: T0,
        actorUrn: 'urn:li:corpuser:__datahub_system',
        entityUrn: 'urn:li:corpuser:bob',
        entityType: 'corpuser',
        aspectName: 'corpUserInfo',
        sourceIP: '10.0.0.1, 10.0.0.2',
        userAgent: 'Mozilla/5.0',
        eventSource: 'RESTLI',
        telemetryTraceId: '0123456789abcdef0123456789abcdef',
        loginSource: 'passwordLogin',
        loginDenialReason: 'BAD_PASSWORD',
        rawUsageEvent: { type: 'UpdateUserEvent', nested: { list: [1, 'two', null], flag: true } },
      };
      const minimal: AuditEvent = {
        id: 'LogInEvent_urn:li:corpuser:bob_2',
        eventType: 'LogInEvent',
        timestamp: T0 - 1,
        actorUrn: 'urn:li:corpuser:bob',
        rawUsageEvent: {},
      };
      await audit.write([full, minimal]);
      const page = await search(audit);
      expect(page.events).toStrictEqual([full, minimal]);
      expect(page.total).toBe(2);
      expect(page.next).toBeUndefined();
    });

    it('stores an id written twice once, holding the last write', async () => {
      const audit = await open();
      await audit.write([event('a', T0), event('a', T0)]);
      await audit.write([event('a', T0, { rawUsageEvent: { second: true } }), event('b', T0 - 5)]);
      await audit.write([event('b', T0 - 5)]);
      const page = await search(audit);
      expect(ids(page.events)).toEqual(['a', 'b']);
      expect(page.events[0]?.rawUsageEvent).toEqual({ second: true });
      expect(page.total).toBe(2);
      expect((await search(audit, { endTime: T0 + 1, startTime: T0 })).total).toBe(1);
    });

    it('orders newest first, ties broken by descending id, across days', async () => {
      const audit = await open();
      await audit.write([
        event('m', T0),
        event('b', T0 - DAY),
        event('z', T0),
        event('a', T0),
        event('y', T0 - DAY),
        event('c', T0 + 1),
        event('A', T0),
      ]);
      const page = await search(audit);
      expect(ids(page.events)).toEqual(['c', 'z', 'm', 'a', 'A', 'y', 'b']);
    });

    it('filters AND across fields and OR within one; an empty list is no filter', async () => {
      const audit = await open();
      const alice = 'urn:li:corpuser:alice';
      const bob = 'urn:li:corpuser:bob';
      await audit.write([
        event('1', T0 - 1, { eventType: 'LogInEvent', actorUrn: alice }),
        event('2', T0 - 2, { eventType: 'LogInEvent', actorUrn: bob }),
        event('3', T0 - 3, {
          eventType: 'CreatePolicyEvent',
          actorUrn: alice,
          entityType: 'dataHubPolicy',
          aspectName: 'dataHubPolicyKey',
        }),
        event('4', T0 - 4, {
          eventType: 'UpdatePolicyEvent',
          actorUrn: bob,
          entityType: 'dataHubPolicy',
          aspectName: 'dataHubPolicyInfo',
        }),
        event('5', T0 - 5, {
          eventType: 'UpdateUserEvent',
          actorUrn: alice,
          entityType: 'corpuser',
          aspectName: 'corpUserInfo',
        }),
        event('6', T0 - DAY, {
          eventType: 'UpdateUserEvent',
          actorUrn: bob,
          entityType: 'corpuser',
          aspectName: 'corpUserStatus',
        }),
      ]);
      const found = async (query: Partial<AuditQuery>) => {
        const page = await search(audit, query);
        expect(page.total).toBe(page.events.length);
        return ids(page.events);
      };
      expect(await found({ eventTypes: ['LogInEvent'] })).toEqual(['1', '2']);
      expect(await found({ eventTypes: ['LogInEvent', 'UpdatePolicyEvent'] })).toEqual(['1', '2', '4']);
      expect(await found({ actorUrns: [alice] })).toEqual(['1', '3', '5']);
      expect(await found({ entityTypes: ['corpuser'] })).toEqual(['5', '6']);
      expect(await found({ entityTypes: ['corpuser', 'dataHubPolicy'] })).toEqual(['3', '4', '5', '6']);
      expect(await found({ aspectTypes: ['corpUserStatus', 'dataHubPolicyKey'] })).toEqual(['3', '6']);
      expect(await found({ actorUrns: [bob], entityTypes: ['corpuser', 'dataHubPolicy'] })).toEqual([
        '4',
        '6',
      ]);
      expect(
        await found({
          eventTypes: ['UpdateUserEvent', 'LogInEvent'],
          actorUrns: [alice, bob],
          aspectTypes: ['corpUserInfo'],
        }),
      ).toEqual(['5']);
      expect(await found({ eventTypes: ['LogInEvent'], entityTypes: ['corpuser'] })).toEqual([]);
      expect(await found({ eventTypes: ['NoSuchEvent'] })).toEqual([]);
      expect(await found({ eventTypes: [], entityTypes: [], aspectTypes: [], actorUrns: [] })).toEqual([
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
      ]);
    });

    it('bounds the window: start inclusive, end exclusive, across a day boundary', async () => {
      const audit = await open();
      const midnight = Date.UTC(2026, 0, 16);
      await audit.write([
        event('before', midnight - 101),
        event('start', midnight - 100),
        event('lastOfDay', midnight - 1),
        event('midnight', midnight),
        event('inside', midnight + 99),
        event('end', midnight + 100),
      ]);
      const page = await search(audit, { startTime: midnight - 100, endTime: midnight + 100 });
      expect(ids(page.events)).toEqual(['inside', 'midnight', 'lastOfDay', 'start']);
      expect(page.total).toBe(4);
      expect((await search(audit, { startTime: midnight, endTime: midnight })).events).toEqual([]);
      expect(ids((await search(audit, { startTime: midnight, endTime: midnight + 1 })).events)).toEqual([
        'midnight',
      ]);
    });

    it('pages without repeats or skips while newer events arrive between pages', async () => {
      const audit = await open();
      const written: AuditEvent[] = [];
      // 40 events over three days, with runs of equal timestamps that straddle page boundaries.
      for (let i = 0; i < 40; i++) {
        const timestamp = T0 - Math.floor(i / 3) * 3_600_000 * 2;
        written.push(event(`e${String(i).padStart(2, '0')}`, timestamp, { eventType: i % 2 ? 'A' : 'B' }));
      }
      await audit.write(written);
      const expected = [...written]
        .sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .map((e) => e.id);
      const seen: string[] = [];
      let after: AuditQuery['after'];
      let pages = 0;
      let newer = 0;
      do {
        const page = await search(audit, { size: 7, ...(after ? { after } : {}) });
        expect(page.total).toBe(40 + newer);
        seen.push(...ids(page.events));
        after = page.next;
        pages++;
        if (after !== undefined) {
          expect(page.events).toHaveLength(7);
          expect(after).toEqual({ timestamp: page.events[6]!.timestamp, id: page.events[6]!.id });
        }
        // Newer than every cursor: in the window, so counted, but never on a later page.
        await audit.write([event(`new${pages}`, T0 + pages), event(`zz${pages}`, T0 + 1 + pages)]);
        newer += 2;
      } while (after !== undefined && pages < 20);
      expect(pages).toBe(6);
      expect(seen).toEqual(expected);
      // A fresh first page sees the newer events first.
      expect(ids((await search(audit, { size: 2 })).events)).toEqual(['zz6', 'zz5']);
    });

    it('sets next only while more events remain', async () => {
      const audit = await open();
      await audit.write([1, 2, 3, 4, 5, 6].map((n) => event(`n${n}`, T0 - n * DAY)));
      const first = await search(audit, { size: 3 });
      expect(ids(first.events)).toEqual(['n1', 'n2', 'n3']);
      expect(first.next).toEqual({ timestamp: T0 - 3 * DAY, id: 'n3' });
      const last = await search(audit, { size: 3, after: first.next! });
      expect(ids(last.events)).toEqual(['n4', 'n5', 'n6']);
      expect(last.next).toBeUndefined();
      expect(last.total).toBe(6);
      expect((await search(audit, { size: 6 })).next).toBeUndefined();
      expect((await search(audit, { size: 5 })).next).toEqual({ timestamp: T0 - 5 * DAY, id: 'n5' });
      const past = await search(audit, { size: 3, after: { timestamp: T0 - 6 * DAY, id: 'n6' } });
      expect(past.events).toEqual([]);
      expect(past.next).toBeUndefined();
      expect(past.total).toBe(6);
      const empty = await search(audit, { size: 3, eventTypes: ['NoSuchEvent'] });
      expect(empty).toEqual({ events: [], total: 0 });
    });

    it('counts the total up to 10,000', async () => {
      const audit = await open();
      const many: AuditEvent[] = [];
      for (let i = 0; i < AUDIT_TOTAL_CAP + 50; i++)
        many.push({
          id: `c${i}`,
          eventType: 'LogInEvent',
          timestamp: T0 - i,
          actorUrn: 'u',
          rawUsageEvent: {},
        });
      await audit.write(many);
      const page = await search(audit, { size: 5 });
      expect(page.total).toBe(AUDIT_TOTAL_CAP);
      expect(ids(page.events)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
      expect(page.next).toEqual({ timestamp: T0 - 4, id: 'c4' });
      const deep = await search(audit, { size: 5, after: { timestamp: T0 - 10_040, id: 'c10040' } });
      expect(ids(deep.events)).toEqual(['c10041', 'c10042', 'c10043', 'c10044', 'c10045']);
      expect(deep.total).toBe(AUDIT_TOTAL_CAP);
      expect((await search(audit, { size: 5, startTime: T0 - 99 })).total).toBe(100);
    }, 120_000);

    const count = async (audit: AuditIndex, query: Partial<AuditCountQuery> = {}) => {
      await audit.refresh();
      return audit.count({ startTime: T0 - 30 * DAY, endTime: T0 + 30 * DAY, ...query });
    };
    const alice = 'urn:li:corpuser:alice';
    const bob = 'urn:li:corpuser:bob';
    const carol = 'urn:li:corpuser:carol';

    it('counts the events of the window by group, a missing value its own group, largest first', async () => {
      const audit = await open();
      await audit.write([
        event('1', T0, { entityType: 'dataset', aspectName: 'ownership' }),
        event('2', T0 - DAY, { entityType: 'dataset', aspectName: 'globalTags' }),
        event('3', T0 - 2 * DAY, { entityType: 'dataset', aspectName: 'ownership', actorUrn: bob }),
        event('4', T0, { entityType: 'chart', aspectName: 'ownership' }),
        event('5', T0, { eventType: 'LogInEvent' }),
        event('6', T0 - 31 * DAY, { entityType: 'dataset', aspectName: 'ownership' }),
        event('7', T0 + 30 * DAY, { entityType: 'dataset', aspectName: 'ownership' }),
      ]);
      expect(await count(audit, { groupBy: ['entityType'] })).toEqual([
        { values: ['dataset'], count: 3 },
        { values: [null], count: 1 },
        { values: ['chart'], count: 1 },
      ]);
      expect(
        await count(audit, { groupBy: ['entityType', 'aspectName'], eventTypes: ['UpdateAspectEvent'] }),
      ).toEqual([
        { values: ['dataset', 'ownership'], count: 2 },
        { values: ['chart', 'ownership'], count: 1 },
        { values: ['dataset', 'globalTags'], count: 1 },
      ]);
      expect(await count(audit, { groupBy: ['actorUrn'], excludeActorUrns: [alice] })).toEqual([
        { values: [bob], count: 1 },
      ]);
      expect(await count(audit)).toEqual([{ values: [], count: 5 }]);
      expect(await count(audit, { eventTypes: ['FailedLogInEvent'] })).toEqual([]);
      expect(await count(audit, { startTime: T0 + DAY, endTime: T0 })).toEqual([]);
    });

    it('counts distinct actors per UTC day, week (from Monday) and month, across days', async () => {
      const audit = await open();
      // T0 is Thursday 2026-01-15: its week began on Monday the 12th and ends on Sunday the 18th.
      await audit.write([
        event('a1', T0, { actorUrn: alice }),
        event('a2', T0 + 3 * DAY, { actorUrn: alice }),
        event('b1', T0 + 3 * DAY, { actorUrn: bob }),
        event('c1', T0 + 4 * DAY, { actorUrn: carol }),
        event('c2', T0 + 4 * DAY + 1, { actorUrn: carol }),
        event('b2', T0 - 20 * DAY, { actorUrn: bob }),
        event('x', T0, { actorUrn: carol, eventType: 'LogInEvent' }),
      ]);
      const only = { eventTypes: ['UpdateAspectEvent'], distinct: 'actorUrn' as const };
      expect(await count(audit, { ...only, interval: 'WEEK' })).toEqual([
        { intervalStart: Date.UTC(2025, 11, 22), values: [], count: 1 },
        { intervalStart: Date.UTC(2026, 0, 12), values: [], count: 2 },
        { intervalStart: Date.UTC(2026, 0, 19), values: [], count: 1 },
      ]);
      expect(await count(audit, { ...only, interval: 'MONTH' })).toEqual([
        { intervalStart: Date.UTC(2025, 11, 1), values: [], count: 1 },
        { intervalStart: Date.UTC(2026, 0, 1), values: [], count: 3 },
      ]);
      expect(await count(audit, { ...only, interval: 'DAY', startTime: T0 + 3 * DAY })).toEqual([
        { intervalStart: Date.UTC(2026, 0, 18), values: [], count: 2 },
        { intervalStart: Date.UTC(2026, 0, 19), values: [], count: 1 },
      ]);
      // Events, not actors, without distinct; grouped by a field within the interval.
      expect(await count(audit, { interval: 'WEEK', groupBy: ['eventType'], startTime: T0 - DAY })).toEqual([
        { intervalStart: Date.UTC(2026, 0, 12), values: ['UpdateAspectEvent'], count: 3 },
        { intervalStart: Date.UTC(2026, 0, 12), values: ['LogInEvent'], count: 1 },
        { intervalStart: Date.UTC(2026, 0, 19), values: ['UpdateAspectEvent'], count: 2 },
      ]);
      expect(await count(audit, { distinct: 'actorUrn', excludeActorUrns: [carol] })).toEqual([
        { values: [], count: 2 },
      ]);
    });

    it('counts every group when there are more than a page of them, missing values included', async () => {
      const audit = await open();
      const many = Array.from({ length: 1_205 }, (_, i) =>
        event(`g${i}`, T0 - i, {
          actorUrn: `urn:li:corpuser:u${i % 1_100}`,
          ...(i % 2 === 0 ? { entityType: 'dataset' } : {}),
        }),
      );
      await audit.write(many);
      const counts = await count(audit, { groupBy: ['entityType', 'actorUrn'] });
      // u0..u104 acted twice (i and i + 1100, of the same parity), the rest once.
      expect(counts).toHaveLength(1_100);
      expect(counts.reduce((n, c) => n + c.count, 0)).toBe(1_205);
      expect(counts.filter((c) => c.count === 2)).toHaveLength(105);
      expect(counts.filter((c) => c.values[0] === null)).toHaveLength(550);
      expect(await count(audit, { distinct: 'actorUrn' })).toEqual([{ values: [], count: 1_100 }]);
    }, 120_000);

    it('refuses a count query it cannot answer with a RangeError', async () => {
      const audit = await open();
      const bad: Partial<AuditCountQuery>[] = [
        { startTime: Number.NaN },
        { groupBy: ['entityUrn' as AuditCountField] },
        { groupBy: ['actorUrn', 'actorUrn'] },
        { interval: 'YEAR' as AuditInterval },
      ];
      for (const query of bad) await expect(count(audit, query)).rejects.toThrow(RangeError);
    });

    it('drops whole days older than the retention and keeps younger ones', async () => {
      const audit = await open(30);
      const now = T0;
      await audit.write([
        event('d40', now - 40 * DAY),
        event('d31', now - 31 * DAY),
        event('d31b', now - 31 * DAY + 1),
        event('d29', now - 29 * DAY),
        event('d1', now - DAY),
        event('d0', now),
      ]);
      const window = { startTime: now - 60 * DAY, endTime: now + DAY };
      expect((await search(audit, window)).total).toBe(6);
      expect(await audit.applyRetention(now)).toBe(2);
      const kept = await search(audit, window);
      expect(ids(kept.events)).toEqual(['d0', 'd1', 'd29']);
      expect(kept.total).toBe(3);
      expect(await audit.applyRetention(now)).toBe(0);
      // A dropped day takes new writes again.
      await audit.write([event('d40again', now - 40 * DAY)]);
      expect(ids((await search(audit, window)).events)).toEqual(['d0', 'd1', 'd29', 'd40again']);

      const forever = await open(0);
      await forever.write([event('old', now - 400 * DAY)]);
      expect(await forever.applyRetention(now)).toBe(0);
    });
  });
}
