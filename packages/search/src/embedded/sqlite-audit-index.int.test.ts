import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditIndexContract } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit/audit-index.js';
import { openSqliteAuditIndex, SqliteAuditIndex } from './sqlite-audit-index.js';
import { auditIdHash } from './sqlite-audit-row.js';
import { SqliteHandle } from './sqlite-handle.js';

function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-audit-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

auditIndexContract('embedded SQLite (own file)', async ({ retentionDays }) => {
  const { dir, remove } = tempDir();
  const audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite'), retentionDays });
  return {
    audit,
    async cleanup() {
      await audit.close();
      remove();
    },
  };
});

auditIndexContract('embedded SQLite (shared handle)', async ({ retentionDays }) => {
  const { dir, remove } = tempDir();
  const handle = new SqliteHandle({ file: join(dir, 'search.sqlite') });
  const audit = new SqliteAuditIndex(handle, { retentionDays });
  return {
    audit,
    async cleanup() {
      await audit.close();
      remove();
    },
  };
});

describe('SqliteAuditIndex', () => {
  it('keeps one table per UTC day with its terms, in WAL mode, and reads them through the (ts) index', async () => {
    const { dir, remove } = tempDir();
    const audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite') });
    const after: (() => void)[] = [];
    try {
      const t = Date.UTC(2026, 2, 1, 23, 59, 59, 999);
      await audit.write([
        { id: 'a', eventType: 'LogInEvent', timestamp: t, actorUrn: 'u', rawUsageEvent: {} },
        { id: 'b', eventType: 'LogInEvent', timestamp: t + 1, actorUrn: 'u', rawUsageEvent: {} },
      ]);
      // WAL is a property of the file: a second connection sees it.
      const db = new Database(join(dir, 'audit.sqlite'), { readonly: true });
      after.push(() => db.close());
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
        .pluck()
        .all();
      expect(tables).toEqual([
        'audit_event_2026_03_01',
        'audit_event_2026_03_01_terms',
        'audit_event_2026_03_02',
        'audit_event_2026_03_02_terms',
      ]);
      const plan = (sql: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
          .map((row) => row.detail)
          .join('\n');
      const order = `ORDER BY e.ts DESC, CASE typeof(e.id) WHEN 'blob' THEN lower(hex(e.id)) ELSE e.id END DESC`;
      // Only ties of equal timestamps are sorted, never the day's rows.
      const newest = plan(
        `SELECT e.raw FROM "audit_event_2026_03_01" AS e WHERE e.ts >= 0 AND e.ts < 1 ${order} LIMIT 1`,
      );
      expect(newest).toMatch(/USING INDEX audit_event_2026_03_01_ts/);
      expect(newest).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      const byActor = plan(
        `SELECT e.raw FROM "audit_event_2026_03_01" AS e WHERE e.ts >= 0 AND e.ts < 1 AND e.actor = 1 ${order} LIMIT 1`,
      );
      expect(byActor).toMatch(/USING INDEX audit_event_2026_03_01_actor/);
      expect(byActor).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      await expect(audit.search({ startTime: 0, endTime: 1, size: -1 })).rejects.toThrow(RangeError);
      await expect(
        audit.write([{ id: '', eventType: 'x', timestamp: 1, actorUrn: 'u', rawUsageEvent: {} }]),
      ).rejects.toThrow(TypeError);
    } finally {
      for (const close of after) close();
      await audit.close();
      remove();
    }
  });

  it('orders ties of hex and other ids by their text, and pages through them', async () => {
    const { dir, remove } = tempDir();
    const audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite'), retentionDays: 0 });
    try {
      const t = Date.UTC(2026, 2, 1, 12);
      // '0f' and 'ab' are kept as bytes, the others as text; their order is that of the text.
      const ids = ['ab', 'AB', '0f', 'zz', 'b', 'abc', '9', 'ab0'];
      await audit.write(
        ids.map((id) => ({ id, eventType: 'LogInEvent', timestamp: t, actorUrn: 'u', rawUsageEvent: {} })),
      );
      const expected = [...ids].sort().reverse();
      const query = { startTime: t, endTime: t + 1, size: 3 };
      const seen: string[] = [];
      let page = await audit.search(query);
      for (;;) {
        seen.push(...page.events.map((e) => e.id));
        if (page.next === undefined) break;
        page = await audit.search({ ...query, after: page.next });
      }
      expect(seen).toEqual(expected);
    } finally {
      await audit.close();
      remove();
    }
  });

  it('tells apart ids of equal hash, rewriting only the one written again', async () => {
    const { dir, remove } = tempDir();
    const audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite'), retentionDays: 0 });
    try {
      const [a, b] = ['event-89073', 'event-218272'];
      expect(auditIdHash(a)).toBe(auditIdHash(b));
      const t = Date.UTC(2026, 2, 1, 12);
      const event = (id: string, n: number): AuditEvent => ({
        id,
        eventType: 'LogInEvent',
        timestamp: t,
        actorUrn: 'u',
        rawUsageEvent: { n },
      });
      await audit.write([event(a, 1), event(b, 1)]);
      await audit.write([event(b, 2)]);
      const page = await audit.search({ startTime: t, endTime: t + 1, size: 10 });
      // Ties of equal timestamps: descending id, and "event-8…" sorts after "event-2…".
      expect(page.events).toStrictEqual([event(a, 1), event(b, 2)]);
    } finally {
      await audit.close();
      remove();
    }
  });

  it('finds an actor in the days that hold it and skips the days that do not', async () => {
    const { dir, remove } = tempDir();
    const audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite'), retentionDays: 0 });
    try {
      const t = Date.UTC(2026, 2, 1, 12);
      const event = (id: string, timestamp: number, actorUrn: string): AuditEvent => ({
        id,
        eventType: 'LogInEvent',
        timestamp,
        actorUrn,
        rawUsageEvent: {},
      });
      await audit.write([
        event('1', t, 'urn:li:corpuser:alice'),
        event('2', t - 86_400_000, 'urn:li:corpuser:bob'),
        event('3', t - 2 * 86_400_000, 'urn:li:corpuser:alice'),
      ]);
      const window = { startTime: t - 5 * 86_400_000, endTime: t + 1, size: 10 };
      const ids = async (actorUrns: string[]) => {
        const page = await audit.search({ ...window, actorUrns });
        expect(page.total).toBe(page.events.length);
        return page.events.map((e) => e.id);
      };
      expect(await ids(['urn:li:corpuser:alice'])).toEqual(['1', '3']);
      expect(await ids(['urn:li:corpuser:bob', 'urn:li:corpuser:alice'])).toEqual(['1', '2', '3']);
      // A term of another field is no match: 'LogInEvent' is an event type, not an actor.
      expect(await ids(['LogInEvent'])).toEqual([]);
    } finally {
      await audit.close();
      remove();
    }
  });

  it("drops a day's terms with its events", async () => {
    const { dir, remove } = tempDir();
    const audit = openSqliteAuditIndex({ file: join(dir, 'audit.sqlite'), retentionDays: 1 });
    const db = new Database(join(dir, 'audit.sqlite'), { readonly: true });
    try {
      const now = Date.UTC(2026, 2, 10, 12);
      await audit.write([
        {
          id: 'old',
          eventType: 'LogInEvent',
          timestamp: now - 5 * 86_400_000,
          actorUrn: 'urn:li:corpuser:gone',
          rawUsageEvent: {},
        },
        {
          id: 'new',
          eventType: 'LogInEvent',
          timestamp: now,
          actorUrn: 'urn:li:corpuser:kept',
          rawUsageEvent: {},
        },
      ]);
      expect(await audit.applyRetention(now)).toBe(1);
      const tables = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
        .pluck()
        .all();
      expect(tables).toEqual(['audit_event_2026_03_10', 'audit_event_2026_03_10_terms']);
    } finally {
      db.close();
      await audit.close();
      remove();
    }
  });

  it('stores a change log event in under 300 bytes, its indices included', async () => {
    const { dir, remove } = tempDir();
    const file = join(dir, 'audit.sqlite');
    const audit = openSqliteAuditIndex({ file, retentionDays: 0 });
    try {
      const t = Date.UTC(2026, 2, 1, 12);
      const events: AuditEvent[] = [];
      for (let i = 0; i < 5_000; i++) {
        const id = createHash('sha256').update(String(i)).digest('hex');
        const traceId = createHash('md5')
          .update(String(i >> 2))
          .digest('hex');
        const entityUrn = `urn:li:dataset:(urn:li:dataPlatform:hive,sales.table_${String(i >> 2).padStart(6, '0')},PROD)`;
        const fields = {
          actorUrn: 'urn:li:corpuser:datahub',
          entityUrn,
          entityType: 'dataset',
          aspectName: ['datasetKey', 'datasetProperties', 'schemaMetadata', 'status'][i % 4]!,
          eventSource: 'RESTLI',
          sourceIP: '127.0.0.1',
          userAgent: 'python-requests/2.31.0',
        };
        const timestamp = t + (i >> 2);
        events.push({
          id,
          eventType: 'UpdateAspectEvent',
          timestamp,
          ...fields,
          telemetryTraceId: traceId,
          rawUsageEvent: { type: 'UpdateAspectEvent', timestamp, ...fields, traceId, usageSource: 'backend' },
        });
      }
      await audit.write(events);
      const db = new Database(file, { readonly: true });
      try {
        const bytes = db
          .prepare(`SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'audit_event_%'`)
          .pluck()
          .get() as number;
        expect(bytes / events.length).toBeLessThan(300);
      } finally {
        db.close();
      }
      const page = await audit.search({ startTime: t, endTime: t + 86_400_000, size: 4 });
      expect(page.events).toStrictEqual(events.slice(-4).sort((a, b) => (a.id < b.id ? 1 : -1)));
    } finally {
      await audit.close();
      remove();
    }
  });
});
