import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent, AuditIndex, AuditQuery } from '../audit/audit-index.js';
import { openSqliteAuditIndex } from './sqlite-audit-index.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 15, 12);

/** A day table exactly as the first layout created it. */
function createFirstLayoutPartition(db: Database.Database, table: string): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS "${table}" (
       id TEXT PRIMARY KEY NOT NULL,
       ts INTEGER NOT NULL,
       event_type TEXT NOT NULL,
       actor_urn TEXT NOT NULL,
       entity_type TEXT,
       aspect_name TEXT,
       doc TEXT NOT NULL
     );
     CREATE INDEX IF NOT EXISTS "${table}_ts" ON "${table}" (ts, id);
     CREATE INDEX IF NOT EXISTS "${table}_type" ON "${table}" (event_type, ts, id);
     CREATE INDEX IF NOT EXISTS "${table}_actor" ON "${table}" (actor_urn, ts, id);
     CREATE INDEX IF NOT EXISTS "${table}_entity" ON "${table}" (entity_type, ts, id);
     CREATE INDEX IF NOT EXISTS "${table}_aspect" ON "${table}" (aspect_name, ts, id);`,
  );
}

/** Writes events into a file as the first layout's adapter did. */
function writeFirstLayout(file: string, events: readonly AuditEvent[]): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    for (const e of events) {
      const day = new Date(Math.floor(e.timestamp / DAY) * DAY).toISOString().slice(0, 10);
      const table = `audit_event_${day.replaceAll('-', '_')}`;
      createFirstLayoutPartition(db, table);
      db.prepare(
        `INSERT OR REPLACE INTO "${table}" (id, ts, event_type, actor_urn, entity_type, aspect_name, doc)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        e.id,
        e.timestamp,
        e.eventType,
        e.actorUrn,
        e.entityType ?? null,
        e.aspectName ?? null,
        JSON.stringify(e),
      );
    }
  } finally {
    db.close();
  }
}

const changeLogEvent = (id: string, timestamp: number, aspectName: string): AuditEvent => {
  const entityUrn = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)';
  const fields = {
    actorUrn: 'urn:li:corpuser:datahub',
    entityUrn,
    entityType: 'dataset',
    aspectName,
    eventSource: 'RESTLI',
    sourceIP: '127.0.0.1',
    userAgent: 'python-requests/2.31.0',
  };
  return {
    id,
    eventType: 'UpdateAspectEvent',
    timestamp,
    ...fields,
    telemetryTraceId: '5d4d5715af4844a88b6d5d6faf4f4a6f',
    rawUsageEvent: {
      type: 'UpdateAspectEvent',
      timestamp,
      ...fields,
      traceId: '5d4d5715af4844a88b6d5d6faf4f4a6f',
      usageSource: 'backend',
    },
  };
};

describe('SqliteAuditIndex over a file of the first layout', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'embedded-audit-migration-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'audit.sqlite');
  };
  const open = (file: string): AuditIndex => {
    const audit = openSqliteAuditIndex({ file, retentionDays: 0 });
    cleanups.push(() => audit.close());
    return audit;
  };

  const hex = (n: number) => n.toString(16).padStart(64, '0');
  const written: AuditEvent[] = [
    changeLogEvent(hex(1), T0, 'datasetProperties'),
    // Ties of equal timestamps, hex and other ids mixed: ordered by id text as before.
    changeLogEvent(hex(0xab), T0 - 1, 'ownership'),
    changeLogEvent('zz-text-id', T0 - 1, 'status'),
    changeLogEvent('AB', T0 - 1, 'status'),
    changeLogEvent(hex(2), T0 - DAY, 'schemaMetadata'),
    {
      id: '0b7c4a4e-9a51-4d0e-8f55-0d2f3c1a7e11',
      eventType: 'LogInEvent',
      timestamp: T0 - 5,
      actorUrn: 'urn:li:corpuser:bob',
      sourceIP: '10.0.0.1',
      telemetryTraceId: 'not hex',
      loginSource: 'passwordLogin',
      rawUsageEvent: {
        eventId: '0b7c4a4e-9a51-4d0e-8f55-0d2f3c1a7e11',
        type: 'LogInEvent',
        nested: { list: [1, 'two', null] },
        usageSource: 'backend',
      },
    },
    {
      id: 'minimal',
      eventType: 'LogInEvent',
      timestamp: T0 - 3 * DAY,
      actorUrn: '',
      rawUsageEvent: {},
    },
  ];
  const window = { startTime: T0 - 10 * DAY, endTime: T0 + DAY, size: 100 };
  const newestFirst = [...written].sort(
    (a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );

  it('rewrites it when opened and answers every query as before', async () => {
    const file = fresh();
    writeFirstLayout(file, written);
    const audit = open(file);

    const page = await audit.search(window);
    expect(page.events).toStrictEqual(newestFirst);
    expect(page.total).toBe(written.length);

    const queries: Partial<AuditQuery>[] = [
      { aspectTypes: ['status'] },
      { eventTypes: ['LogInEvent'], actorUrns: ['urn:li:corpuser:bob'] },
      { entityTypes: ['dataset'], size: 2 },
      { actorUrns: [''] },
      { size: 2, after: { timestamp: T0 - 1, id: 'zz-text-id' } },
    ];
    for (const query of queries) {
      const q = { ...window, ...query };
      const expected = newestFirst.filter(
        (e) =>
          (q.aspectTypes === undefined || q.aspectTypes.includes(e.aspectName ?? '\0')) &&
          (q.eventTypes === undefined || q.eventTypes.includes(e.eventType)) &&
          (q.entityTypes === undefined || q.entityTypes.includes(e.entityType ?? '\0')) &&
          (q.actorUrns === undefined || q.actorUrns.includes(e.actorUrn)),
      );
      const after = q.after;
      const resumed =
        after === undefined
          ? expected
          : expected.filter(
              (e) => e.timestamp < after.timestamp || (e.timestamp === after.timestamp && e.id < after.id),
            );
      const found = await audit.search(q);
      expect(found.events, JSON.stringify(query)).toStrictEqual(resumed.slice(0, q.size));
      expect(found.total, JSON.stringify(query)).toBe(expected.length);
    }

    // An id written again after the rewrite replaces the rewritten event.
    const again = { ...written[0]!, rawUsageEvent: { second: true } };
    await audit.write([again]);
    const replaced = await audit.search(window);
    expect(replaced.total).toBe(written.length);
    expect(replaced.events[0]).toStrictEqual(again);
  });

  it('leaves no table of the first layout behind, and a second open finds nothing to do', async () => {
    const file = fresh();
    writeFirstLayout(file, written);
    const first = openSqliteAuditIndex({ file, retentionDays: 0 });
    await first.close();
    const db = new Database(file, { readonly: true });
    cleanups.push(() => {
      db.close();
    });
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all();
    expect(tables).toEqual([
      'audit_event_2026_01_12',
      'audit_event_2026_01_12_terms',
      'audit_event_2026_01_14',
      'audit_event_2026_01_14_terms',
      'audit_event_2026_01_15',
      'audit_event_2026_01_15_terms',
    ]);
    const columns = db.prepare(`SELECT name FROM pragma_table_info('audit_event_2026_01_15')`).pluck().all();
    expect(columns).not.toContain('doc');
    expect(columns).toContain('seq');
    const before = db.prepare(`SELECT count(*) FROM audit_event_2026_01_15`).pluck().get();
    expect(before).toBe(5);
    const second = open(file);
    expect((await second.search(window)).events).toStrictEqual(newestFirst);
  });

  it('leaves the file as it was when the rewrite fails', () => {
    const file = fresh();
    writeFirstLayout(file, written);
    const db = new Database(file);
    cleanups.push(() => {
      db.close();
    });
    db.prepare(`UPDATE audit_event_2026_01_15 SET doc = 'not json' WHERE id = 'AB'`).run();
    expect(() => openSqliteAuditIndex({ file, retentionDays: 0 })).toThrow(SyntaxError);
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all();
    expect(tables).toEqual(['audit_event_2026_01_12', 'audit_event_2026_01_14', 'audit_event_2026_01_15']);
    expect(db.prepare(`SELECT count(*) FROM audit_event_2026_01_15`).pluck().get()).toBe(5);
  });
});
