import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  AUDIT_TOTAL_CAP,
  type AuditCount,
  type AuditCountField,
  type AuditCountQuery,
  type AuditEvent,
  type AuditIndex,
  type AuditPage,
  type AuditQuery,
} from '../audit/audit-index.js';
import { AuditCounter, auditIntervalStart, normalizeAuditCountQuery } from '../audit/audit-counts.js';
import {
  auditDayOf,
  auditDayStart,
  cursorOf,
  dayExpired,
  dayOverlaps,
  DEFAULT_AUDIT_RETENTION_DAYS,
  normalizeAuditQuery,
  validateAuditEvent,
  type AuditFilters,
  type NormalizedAuditQuery,
} from '../audit/audit-partitions.js';
import {
  AUDIT_TABLE_NAME,
  AUDIT_TABLE_PREFIX,
  createAuditPartition,
  migrateLegacyAuditPartitions,
  termsTableOf,
} from './sqlite-audit-layout.js';
import {
  AUDIT_ROW_COLUMNS,
  auditRowSelection,
  decodeAuditRow,
  encodeAuditRow,
  parseClient,
  type AuditClient,
  type AuditTermColumn,
  type StoredAuditRow,
  unpackedHexSql,
} from './sqlite-audit-row.js';
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

/** Prepared statements kept (per day table and query shape) before the cache starts over. */
const MAX_STATEMENTS = 500;
/** The event id as written, for ordering ties of equal timestamps as the first layout did (by id text). */
const ID_TEXT = unpackedHexSql('e.id');
/** The term columns a query's filter lists constrain. */
const FILTER_COLUMNS = [
  ['eventTypes', 'event_type'],
  ['entityTypes', 'entity_type'],
  ['aspectTypes', 'aspect'],
  ['actorUrns', 'actor'],
] as const satisfies readonly (readonly [keyof AuditFilters, AuditTermColumn])[];

/** The term column of each field counts group by. */
const COUNT_COLUMNS: Readonly<Record<AuditCountField, AuditTermColumn>> = {
  eventType: 'event_type',
  actorUrn: 'actor',
  entityType: 'entity_type',
  aspectName: 'aspect',
};

interface Partition {
  readonly table: string;
  readonly dayStart: number;
}

interface Conditions {
  readonly where: string;
  readonly parameters: readonly unknown[];
}

/**
 * The embedded AuditIndex: one table per UTC day of the events' timestamps (`audit_event_yyyy_mm_dd`,
 * with its term table), so retention drops whole tables. A row is found again by its event id (a
 * rewrite replaces it; an id's timestamp is that of its source record, so it always lands in the same
 * day); see AuditRow for what a row holds. Reads go day by day, newest day first, each through the
 * (ts) index or a (filter field, ts) index, ties of equal timestamps ordered by id, until the page and
 * one more event are found; `total` counts matches, ignoring the cursor, up to AUDIT_TOTAL_CAP. A file
 * written in the first layout (the whole event as JSON, keyed by its id) is rewritten when opened.
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
      // Every batch: another connection's retention may have dropped the day's table meanwhile.
      for (const [table, list] of byTable) this.writeRows(table, list);
    });
    try {
      migrateLegacyAuditPartitions(this.db, (table, events) => this.writeRows(table, events));
    } catch (error) {
      if (!(source instanceof Database)) source.release();
      throw error;
    }
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
    const partitions: (Partition & Conditions)[] = [];
    for (const partition of this.partitions()) {
      if (!dayOverlaps(partition.dayStart, q.startTime, q.endTime)) continue;
      const found = this.conditions(partition.table, q);
      if (found !== undefined) partitions.push({ ...partition, ...found });
    }
    partitions.sort((a, b) => b.dayStart - a.dayStart);
    const events: AuditEvent[] = [];
    // A page's events mostly share a few clients: each is parsed once.
    const clients = new Map<string, AuditClient>();
    const client = (term: string) => {
      let parsed = clients.get(term);
      if (parsed === undefined) clients.set(term, (parsed = parseClient(term)));
      return parsed;
    };
    let more = false;
    for (const { table, dayStart, where, parameters } of partitions) {
      if (q.size === 0 || more) break;
      // A day that starts after the cursor holds nothing after it.
      if (q.after !== undefined && dayStart > q.after.timestamp) continue;
      const resume = q.after === undefined ? '' : ` AND e.ts <= ? AND (e.ts < ? OR ${ID_TEXT} < ?)`;
      const select = this.statement(
        `select:${table}:${where}:${resume}`,
        `SELECT ${auditRowSelection(table, termsTableOf(table))} WHERE ${where}${resume}
         ORDER BY e.ts DESC, ${ID_TEXT} DESC LIMIT ?`,
        true,
      );
      const resumeParameters =
        q.after === undefined ? [] : [q.after.timestamp, q.after.timestamp, q.after.id];
      const wanted = q.size + 1 - events.length;
      const rows = select.all(...parameters, ...resumeParameters, wanted) as StoredAuditRow[];
      for (const row of rows) {
        if (events.length === q.size) {
          more = true;
          break;
        }
        events.push(decodeAuditRow(row, client));
      }
    }
    let total = 0;
    for (const { table, where, parameters } of partitions) {
      if (total >= AUDIT_TOTAL_CAP) break;
      const count = this.statement(
        `count:${table}:${where}`,
        `SELECT count(*) AS n FROM (SELECT 1 FROM "${table}" AS e WHERE ${where} LIMIT ?)`,
      );
      total += (count.get(...parameters, AUDIT_TOTAL_CAP - total) as { n: number }).n;
    }
    const last = events[events.length - 1];
    return { events, total, ...(more && last !== undefined ? { next: cursorOf(last) } : {}) };
  }

  /**
   * Each day partition of the window is counted by SQLite (grouped by the term codes, through the
   * (event type, ts) or (ts) index), the day's interval known from its date; the partial counts are
   * gathered by AuditCounter (the distinct actors of a group across days as a set).
   */
  async count(query: AuditCountQuery): Promise<readonly AuditCount[]> {
    const q = normalizeAuditCountQuery(query);
    if (q.startTime >= q.endTime) return [];
    const counter = new AuditCounter(q);
    const columns = q.groupBy.map((field) => COUNT_COLUMNS[field]);
    const grouped = q.distinct === undefined ? columns : [...columns, COUNT_COLUMNS.actorUrn];
    for (const { table, dayStart } of this.partitions()) {
      if (!dayOverlaps(dayStart, q.startTime, q.endTime)) continue;
      const found = this.conditions(table, {
        startTime: q.startTime,
        endTime: q.endTime,
        size: 0,
        eventTypes: q.eventTypes,
        entityTypes: [],
        aspectTypes: [],
        actorUrns: [],
      });
      if (found === undefined) continue;
      let { where } = found;
      const parameters = [...found.parameters];
      if (q.excludeActorUrns.length > 0) {
        const codes = this.termCodes(table, q.excludeActorUrns);
        if (codes.length > 0) {
          where += ` AND e.actor NOT IN (${codes.map(() => '?').join(', ')})`;
          parameters.push(...codes);
        }
      }
      const terms = termsTableOf(table);
      const joins = grouped.map((column, i) => `LEFT JOIN "${terms}" AS g${i} ON g${i}.code = e.${column}`);
      const select = this.statement(
        `tally:${table}:${where}:${grouped.join(',')}`,
        `SELECT ${[...grouped.map((_, i) => `g${i}.value`), 'count(*)'].join(', ')}
         FROM "${table}" AS e ${joins.join(' ')} WHERE ${where}
         ${grouped.length === 0 ? '' : `GROUP BY ${grouped.map((column) => `e.${column}`).join(', ')}`}`,
        true,
      );
      const intervalStart = q.interval === undefined ? undefined : auditIntervalStart(dayStart, q.interval);
      for (const row of select.all(...parameters) as (string | number | null)[][]) {
        const values = row.slice(0, columns.length) as (string | null)[];
        const events = row[grouped.length] as number;
        const actor = q.distinct === undefined ? undefined : (row[columns.length] as string | null);
        counter.add(intervalStart, values, events, actor);
      }
    }
    return counter.result();
  }

  async refresh(): Promise<void> {}

  async applyRetention(now: number = Date.now()): Promise<number> {
    const expired = this.partitions().filter((p) => dayExpired(p.dayStart, now, this.retentionDays));
    if (expired.length === 0) return 0;
    writeTransaction(this.db, () => {
      for (const { table } of expired)
        this.db.exec(`DROP TABLE IF EXISTS "${table}"; DROP TABLE IF EXISTS "${termsTableOf(table)}"`);
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

  /** Writes a day's events, replacing a stored event of the same id; inside a write transaction. */
  private writeRows(table: string, events: readonly AuditEvent[]): void {
    createAuditPartition(this.db, table);
    const terms = termsTableOf(table);
    const findTerm = this.statement(`term:${table}`, `SELECT code FROM "${terms}" WHERE value = ?`);
    const addTerm = this.statement(`addTerm:${table}`, `INSERT INTO "${terms}" (value) VALUES (?)`);
    const codes = new Map<string, number>();
    const term = (value: string): number => {
      let code = codes.get(value);
      if (code === undefined) {
        const found = findTerm.get(value) as { code: number } | undefined;
        code = found?.code ?? Number(addTerm.run(value).lastInsertRowid);
        codes.set(value, code);
      }
      return code;
    };
    const find = this.statement(`find:${table}`, `SELECT seq FROM "${table}" WHERE id_hash = ? AND id = ?`);
    const insert = this.statement(
      `insert:${table}`,
      `INSERT INTO "${table}" (${AUDIT_ROW_COLUMNS.join(', ')})
       VALUES (${AUDIT_ROW_COLUMNS.map(() => '?').join(', ')})`,
    );
    const replace = this.statement(
      `replace:${table}`,
      `UPDATE "${table}" SET ${AUDIT_ROW_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE seq = ?`,
    );
    for (const event of events) {
      const row = encodeAuditRow(event, term);
      const values = AUDIT_ROW_COLUMNS.map((column) => row[column]);
      const stored = find.get(row.id_hash, row.id) as { seq: number } | undefined;
      if (stored === undefined) insert.run(...values);
      else replace.run(...values, stored.seq);
    }
  }

  /**
   * The window and filters as SQL over a day table `e` (the same text for the same shape, so
   * statements are reused), the filter values as the day's term codes; undefined when a filter names
   * no term of the day, so nothing in it matches.
   */
  private conditions(table: string, q: NormalizedAuditQuery): Conditions | undefined {
    const clauses = ['e.ts >= ?', 'e.ts < ?'];
    const parameters: unknown[] = [q.startTime, q.endTime];
    for (const [field, column] of FILTER_COLUMNS) {
      const values = q[field];
      if (values.length === 0) continue;
      const codes = this.statement(
        `codes:${table}:${values.length}`,
        `SELECT code FROM "${termsTableOf(table)}" WHERE value IN (${values.map(() => '?').join(', ')})`,
      )
        .pluck()
        .all(...values);
      if (codes.length === 0) return undefined;
      clauses.push(
        codes.length === 1 ? `e.${column} = ?` : `e.${column} IN (${codes.map(() => '?').join(', ')})`,
      );
      parameters.push(...codes);
    }
    return { where: clauses.join(' AND '), parameters };
  }

  /** The day's term codes of those of `values` it holds. */
  private termCodes(table: string, values: readonly string[]): number[] {
    return this.statement(
      `codes:${table}:${values.length}`,
      `SELECT code FROM "${termsTableOf(table)}" WHERE value IN (${values.map(() => '?').join(', ')})`,
    )
      .pluck()
      .all(...values) as number[];
  }

  private partitions(): Partition[] {
    const rows = this.db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB '${AUDIT_TABLE_PREFIX}[0-9]*'`,
      )
      .all();
    const found: Partition[] = [];
    for (const { name } of rows) {
      const match = AUDIT_TABLE_NAME.exec(name);
      const dayStart = match === null ? undefined : auditDayStart(`${match[1]}.${match[2]}.${match[3]}`);
      if (dayStart !== undefined) found.push({ table: name, dayStart });
    }
    return found;
  }

  /** A cached prepared statement; `positional` ones return each row as an array. */
  private statement(key: string, sql: string, positional = false): Database.Statement<unknown[]> {
    let statement = this.statements.get(key);
    if (statement === undefined) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      if (positional) statement.raw(true);
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/**
 * Opens a SQLite file of its own for the audit index (WAL, the search file's pragmas), owned by the
 * returned index: its close() closes the file.
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
    return new SqliteAuditIndex(db, { ...options, closesDatabase: true });
  } catch (error) {
    db.close();
    throw error;
  }
}

function tableOf(day: string): string {
  return `${AUDIT_TABLE_PREFIX}${day.replaceAll('.', '_')}`;
}
