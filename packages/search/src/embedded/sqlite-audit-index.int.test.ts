import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditIndexContract } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteAuditIndex, SqliteAuditIndex } from './sqlite-audit-index.js';
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
  it('keeps one table per UTC day, in WAL mode, and reads them through the (ts, id) index', async () => {
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
      expect(tables).toEqual(['audit_event_2026_03_01', 'audit_event_2026_03_02']);
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT doc FROM "audit_event_2026_03_01" WHERE ts >= ? AND ts < ?
           AND (ts < ? OR (ts = ? AND id < ?)) ORDER BY ts DESC, id DESC LIMIT ?`,
        )
        .all(0, 1, 0, 0, '', 1) as { detail: string }[];
      expect(plan.map((row) => row.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
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
});
