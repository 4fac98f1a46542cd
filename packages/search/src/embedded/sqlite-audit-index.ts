import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  AUDIT_TOTAL_CAP,
  type AuditEvent,
  type AuditIndex,
  type AuditPage,
  type AuditQuery,
} from '../audit/audit-index.js';
import {
  auditDayOf,
  auditDayStart,
  cursorOf,
  dayExpired,
  dayOverlaps,
  DEFAULT_AUDIT_RETENTION_DAYS,
  normalizeAuditQuery,
  validateAuditEvent,
  type NormalizedAuditQuery,
} from '../audit/audit-partitions.js';
import type { SqliteHandle } from './sqlite-handle.js';
import { writeTransaction } from './write-transaction.js';

export interface SqliteAuditIndexOptions {
  /** Days an event is kept for (applyRetention); 0 or negative keeps events forever. Default 90. */
  readonly retentionDays?: number;
  /** Whether close() also closes a Database given to the constructor (default false: its opener owns it). */
  readonly closesDatabase?: boolean;
}

export interface OpenSqliteAuditIndexOptions extends SqliteAuditIndexOptions {
  /** Database file; its directory is created when missing. `:memory:` for a throwaway index. */
  readonly file: string;
  /** As EmbeddedSearchOptions: `process-crash` (default, synchronous=NORMAL) or `power-loss` (FULL). */
  readonly durability?: 'process-crash' | 'power-loss';
  /** As EmbeddedSearchOptions: the page cache's bound in KiB. Default 16000, SQLite's as built here. */
  readonly cacheKiB?: number;
}

const TABLE_PREFIX = 'audit_event_';
/** Prepared statements kept (per day table and query shape) before the cache starts over. */
const MAX_STATEMENTS = 500;
const TABLE_NAME = /^audit_event_(\d{4})_(\d{2})_(\d{2})$/;

interface Partition {
  readonly table: string;
  readonly dayStart: number;
}

/**
 * The embedded AuditIndex: one table per UTC day of the events' timestamps (`audit_event_yyyy_mm_dd`),
 * so retention drops whole tables. A row is keyed by the event id (a rewrite replaces it; an id's
 * timestamp is that of its source record, so it always lands in the same day). Reads go day by day,
 * newest day first, each through the (ts, id) index or a (filter field, ts, id) index, until the page
 * and one more event are found; `total` counts matches, ignoring the cursor, up to AUDIT_TOTAL_CAP.
 */
export class SqliteAuditIndex implements AuditIndex {
  private readonly db: Database.Database;
  private readonly retentionDays: number;
  private readonly statements = new Map<string, Database.Statement<unknown[]>>();
  private readonly writeBatch: (events: readonly AuditEvent[]) => void;
  private readonly closesDatabase: boolean;
  private closed = false;

  /**
   * Over a shared SqliteHandle (acquired here, released by close()) or an open Database (left open by
   * close() unless `closesDatabase`). The Database should be in WAL mode, as SqliteHandle and
   * openSqliteAuditIndex set it.
   */
  constructor(
    private readonly source: SqliteHandle | Database.Database,
    options: SqliteAuditIndexOptions = {},
  ) {
    if (source instanceof Database) {
      this.db = source;
    } else {
      source.acquire();
      this.db = source.db;
    }
    this.retentionDays = options.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
    this.closesDatabase = options.closesDatabase ?? false;
    this.writeBatch = writeTransaction(this.db, (events: readonly AuditEvent[]) => {
      const byTable = new Map<string, AuditEvent[]>();
      for (const event of events) {
        const table = tableOf(auditDayOf(event.timestamp));
        const list = byTable.get(table);
        if (list === undefined) byTable.set(table, [event]);
        else list.push(event);
      }
      for (const [table, list] of byTable) {
        // Every batch: another connection's retention may have dropped the day's table meanwhile.
        createPartition(this.db, table);
        const insert = this.statement(
          `insert:${table}`,
          `INSERT OR REPLACE INTO "${table}" (id, ts, event_type, actor_urn, entity_type, aspect_name, doc)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const e of list)
          insert.run(
            e.id,
            e.timestamp,
            e.eventType,
            e.actorUrn,
            e.entityType ?? null,
            e.aspectName ?? null,
            JSON.stringify(e),
          );
      }
    });
  }

  async ensure(): Promise<void> {
    // Day tables are created by the first write into them.
  }

  async write(events: readonly AuditEvent[]): Promise<void> {
    for (const event of events) validateAuditEvent(event);
    if (events.length > 0) this.writeBatch(events);
  }

  async search(query: AuditQuery): Promise<AuditPage> {
    const q = normalizeAuditQuery(query);
    if (q.startTime >= q.endTime) return { events: [], total: 0 };
    const partitions = this.partitions()
      .filter((p) => dayOverlaps(p.dayStart, q.startTime, q.endTime))
      .sort((a, b) => b.dayStart - a.dayStart);
    const { where, parameters } = conditions(q);
    const events: AuditEvent[] = [];
    let more = false;
    for (const { table, dayStart } of partitions) {
      if (q.size === 0 || more) break;
      // A day that starts after the cursor holds nothing after it.
      if (q.after !== undefined && dayStart > q.after.timestamp) continue;
      const resume = q.after === undefined ? '' : ' AND (ts < ? OR (ts = ? AND id < ?))';
      const select = this.statement(
        `select:${table}:${where}:${resume}`,
        `SELECT doc FROM "${table}" WHERE ${where}${resume} ORDER BY ts DESC, id DESC LIMIT ?`,
      );
      const resumeParameters =
        q.after === undefined ? [] : [q.after.timestamp, q.after.timestamp, q.after.id];
      const wanted = q.size + 1 - events.length;
      const rows = select.all(...parameters, ...resumeParameters, wanted) as { doc: string }[];
      for (const row of rows) {
        if (events.length === q.size) {
          more = true;
          break;
        }
        events.push(JSON.parse(row.doc) as AuditEvent);
      }
    }
    let total = 0;
    for (const { table } of partitions) {
      if (total >= AUDIT_TOTAL_CAP) break;
      const count = this.statement(
        `count:${table}:${where}`,
        `SELECT count(*) AS n FROM (SELECT 1 FROM "${table}" WHERE ${where} LIMIT ?)`,
      );
      total += (count.get(...parameters, AUDIT_TOTAL_CAP - total) as { n: number }).n;
    }
    const last = events[events.length - 1];
    return { events, total, ...(more && last !== undefined ? { next: cursorOf(last) } : {}) };
  }

  async refresh(): Promise<void> {}

  async applyRetention(now: number = Date.now()): Promise<number> {
    const expired = this.partitions().filter((p) => dayExpired(p.dayStart, now, this.retentionDays));
    if (expired.length === 0) return 0;
    writeTransaction(this.db, () => {
      for (const { table } of expired) this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    })();
    for (const key of [...this.statements.keys()])
      if (expired.some(({ table }) => key.includes(`:${table}`))) this.statements.delete(key);
    return expired.length;
  }

  async ping(): Promise<void> {
    if (this.closed || !this.db.open) throw new Error('the audit index is closed');
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    if (!(this.source instanceof Database)) this.source.release();
    else if (this.closesDatabase && this.source.open) this.source.close();
  }

  private partitions(): Partition[] {
    const rows = this.db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB '${TABLE_PREFIX}[0-9]*'`,
      )
      .all();
    const found: Partition[] = [];
    for (const { name } of rows) {
      const match = TABLE_NAME.exec(name);
      const dayStart = match === null ? undefined : auditDayStart(`${match[1]}.${match[2]}.${match[3]}`);
      if (dayStart !== undefined) found.push({ table: name, dayStart });
    }
    return found;
  }

  private statement(key: string, sql: string): Database.Statement<unknown[]> {
    let statement = this.statements.get(key);
    if (statement === undefined) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/**
 * Opens a SQLite file of its own for the audit index (WAL, the search file's pragmas but its memory
 * map), owned by the returned index: its close() closes the file.
 */
export function openSqliteAuditIndex(options: OpenSqliteAuditIndexOptions): SqliteAuditIndex {
  if (options.file !== ':memory:' && options.file !== '')
    mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.durability === 'power-loss' ? 'FULL' : 'NORMAL'}`);
    db.pragma('busy_timeout = 5000');
    const cacheKiB = options.cacheKiB ?? 16000;
    if (!Number.isInteger(cacheKiB) || cacheKiB <= 0)
      throw new RangeError(`cacheKiB must be a positive integer, got ${cacheKiB}`);
    db.pragma(`cache_size = -${cacheKiB}`);
    // As the search file: what does not fit in the page cache spills to a temporary file.
    db.pragma('temp_store = FILE');
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteAuditIndex(db, { ...options, closesDatabase: true });
}

function tableOf(day: string): string {
  return `${TABLE_PREFIX}${day.replaceAll('.', '_')}`;
}

function createPartition(db: Database.Database, table: string): void {
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

/** The window and filters as SQL (the same text for the same shape, so statements are reused). */
function conditions(q: NormalizedAuditQuery): { where: string; parameters: unknown[] } {
  const clauses = ['ts >= ?', 'ts < ?'];
  const parameters: unknown[] = [q.startTime, q.endTime];
  const add = (column: string, values: readonly string[]) => {
    if (values.length === 0) return;
    clauses.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    parameters.push(...values);
  };
  add('event_type', q.eventTypes);
  add('entity_type', q.entityTypes);
  add('aspect_name', q.aspectTypes);
  add('actor_urn', q.actorUrns);
  return { where: clauses.join(' AND '), parameters };
}
