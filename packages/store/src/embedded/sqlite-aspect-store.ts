import { mkdirSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { checkWrite, DEFAULT_RUN_ID } from '../write-rules.js';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  ApplyResult,
  AspectStore,
  AspectWrite,
  RunRowsOptions,
  RunSummary,
  ScanOptions,
  ScanPage,
  StoredAspect,
} from '../port.js';
import { decodeScanCursor, encodeScanCursor } from '../scan-cursor.js';
import { applyAspectWrite } from './apply-aspect-write.js';
import { ASPECT_COLUMNS, storedAspectOfRow, type EncodedAspectRow } from './aspect-row.js';
import { vacuumAfterCompaction } from './compact-aspects.js';
import { likeToGlob } from './like-to-glob.js';
import { runIdOf, storedRunId } from './run-columns.js';
import { migrateSchema, type MigrationLogger } from './sqlite-schema.js';
import { prepareStatements, type SqliteStatements } from './sqlite-statements.js';
import { StatementCache } from './statement-cache.js';

export interface SqliteAspectStoreOptions {
  /** Database file; its directory is created when missing. `:memory:` for a throwaway store. */
  readonly file: string;
  /**
   * What a committed write survives. Both use WAL.
   * - `process-crash` (default, synchronous=NORMAL): a commit is in the WAL file before applyBatch
   *   resolves, so kill -9 of the process loses nothing committed; an OS crash or power cut may lose
   *   the last commits (never corrupting the file).
   * - `power-loss` (synchronous=FULL): the WAL is fsynced at every commit, so committed writes also
   *   survive an OS crash or power cut, at the price of one fsync per batch.
   */
  readonly durability?: 'process-crash' | 'power-loss';
  /** How long a request id is remembered for idempotent redelivery; default 7 days. */
  readonly requestRetentionMs?: number;
  /** At most this many request ids are remembered; the oldest are forgotten first. Default 1,000,000. */
  readonly maxRequestRows?: number;
  /** How often request ids are pruned in the background (see pruneRequests); 0 never. Default 60 s. */
  readonly requestPruneIntervalMs?: number;
  /** Milliseconds since the epoch; injected so tests control lastObserved and pruning. */
  readonly clock?: () => number;
  /**
   * WAL pages at which a commit checkpoints the file itself, inside that commit. Default 4000; set it
   * high when a background checkpointer (the runtime's WalCheckpointer) keeps the WAL short instead.
   */
  readonly autoCheckpointPages?: number;
  /**
   * The most memory this connection's page cache takes, in KiB (SQLite's cache_size, negated): a
   * ceiling, filled only by the pages read. Default 32768 (32 MiB); the catalog gives each connection
   * its share of CATALOG_SQLITE_CACHE_BYTES.
   */
  readonly cacheKiB?: number;
  /** Where opening the file says what a migration of its layout does (it can take minutes). */
  readonly logger?: SqliteStoreLogger;
}

export interface SqliteStoreLogger extends MigrationLogger {
  warn(obj: object, msg?: string): void;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_MAX_REQUEST_ROWS = 1_000_000;
const DEFAULT_PRUNE_INTERVAL_MS = 60_000;
/** Rows pruned per transaction: writers wait for one step at most, never for a whole backlog. */
const PRUNE_STEP_ROWS = 5_000;
/** Keys per IN list in getLatestMany, well under SQLite's bound-parameter limit. */
const IN_CHUNK = 500;
/** The schema step that rebuilds the aspects table smaller (see compact-aspects.ts). */
const COMPACTION_STEP = 4;

/** Opens (creating or migrating as needed) the embedded aspect store at `options.file`. */
export async function openSqliteAspectStore(options: SqliteAspectStoreOptions): Promise<SqliteAspectStore> {
  return new SqliteAspectStore(options);
}

/**
 * The embedded AspectStore on one SQLite file (better-sqlite3). better-sqlite3 is synchronous, so a
 * batch runs start to finish without yielding: concurrent applyBatch calls in one process are
 * serialized, and IMMEDIATE transactions with a busy timeout serialize other processes on the file.
 */
export class SqliteAspectStore implements AspectStore {
  private readonly db: Database.Database;
  private readonly stmts: SqliteStatements;
  private readonly queries: StatementCache;
  private readonly clock: () => number;
  private readonly retentionMs: number;
  private readonly maxRequestRows: number;
  private readonly applyInTransaction: (writes: readonly AspectWrite[]) => ApplyResult[];
  private readonly pruneTimer: NodeJS.Timeout | undefined;
  private pruning: Promise<number> | undefined;
  /** Request ids recorded since the last prune began; past a tenth of the row bound, a prune is due. */
  private recordedSincePrune = 0;

  constructor(options: SqliteAspectStoreOptions) {
    this.clock = options.clock ?? Date.now;
    this.retentionMs = options.requestRetentionMs ?? DEFAULT_RETENTION_MS;
    this.maxRequestRows = nonNegativeInteger(options.maxRequestRows ?? DEFAULT_MAX_REQUEST_ROWS);
    if (options.file !== ':memory:' && options.file !== '')
      mkdirSync(dirname(options.file), { recursive: true });
    this.db = new Database(options.file);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.durability === 'power-loss' ? 'FULL' : 'NORMAL'}`);
      this.db.pragma('busy_timeout = 5000');
      this.db.pragma(`cache_size = -${positiveInteger(options.cacheKiB ?? 32768, 'cacheKiB')}`);
      // Sorts and temporary tables larger than the page cache spill to a temporary file, not the heap.
      this.db.pragma('temp_store = FILE');
      // An automatic checkpoint (two fsyncs plus copying pages back) runs inside the commit that
      // crosses the threshold, stalling applyBatch; at 4x SQLite's default they come 4x rarer, and the
      // catalog moves them to a background thread. The size limit truncates the WAL after a checkpoint.
      this.db.pragma(`wal_autocheckpoint = ${nonNegativeInteger(options.autoCheckpointPages ?? 4000)}`);
      this.db.pragma('journal_size_limit = 67108864');
      const migrated = migrateSchema(this.db, this.clock(), undefined, options.logger);
      // A new file has no old pages to give back.
      if (migrated.from > 0 && migrated.applied.includes(COMPACTION_STEP))
        vacuumAfterCompaction(this.db, options.logger);
      this.stmts = prepareStatements(this.db);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.queries = new StatementCache(this.db);
    const transaction = this.db.transaction((writes: readonly AspectWrite[]) => {
      const now = this.clock();
      return writes.map((write) => applyAspectWrite(this.stmts, write, now));
    });
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first could fail
    // with SQLITE_BUSY on upgrade when another process writes the same file.
    this.applyInTransaction = (writes) => transaction.immediate(writes);
    const pruneIntervalMs = nonNegativeInteger(options.requestPruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS);
    if (pruneIntervalMs > 0) {
      this.pruneTimer = setInterval(() => {
        this.pruneRequests().catch(() => {
          // The file stayed locked past busy_timeout: the next interval tries again.
        });
      }, pruneIntervalMs);
      // Pruning must not keep a process alive on its own.
      this.pruneTimer.unref();
    }
  }

  /**
   * Forgets request ids older than requestRetentionMs, then the oldest beyond maxRequestRows, then
   * the removed aspects no record left can name, a step (one short transaction) at a time, yielding
   * between steps so batches are not held up.
   */
  pruneRequests(): Promise<number> {
    this.pruning ??= this.pruneInSteps().finally(() => (this.pruning = undefined));
    return this.pruning;
  }

  private async pruneInSteps(): Promise<number> {
    this.recordedSincePrune = 0;
    let forgotten = 0;
    const cutoff = this.clock() - this.retentionMs;
    for (;;) {
      if (!this.db.open) return forgotten;
      const { changes } = this.stmts.pruneRequests.run(cutoff, PRUNE_STEP_ROWS);
      forgotten += changes;
      // Rows are appended in time order, so a short step means nothing older is left.
      if (changes < PRUNE_STEP_ROWS) break;
      await yieldToEventLoop();
    }
    for (;;) {
      if (!this.db.open) return forgotten;
      const excess = (this.stmts.countRequests.get()?.count ?? 0) - this.maxRequestRows;
      if (excess <= 0) break;
      forgotten += this.stmts.pruneOldestRequests.run(Math.min(excess, PRUNE_STEP_ROWS)).changes;
      await yieldToEventLoop();
    }
    await this.pruneRemovedAspects();
    return forgotten;
  }

  /**
   * Drops what deletes removed once no request record can name it any more: a record names a row
   * only if it was applied before the row was removed, so rows removed before the oldest record left
   * was applied are named by none. Runs after the request ids are pruned, so it follows both bounds.
   */
  private async pruneRemovedAspects(): Promise<void> {
    for (;;) {
      if (!this.db.open) return;
      const oldest = this.stmts.oldestRequest.get()?.applied_at ?? Number.MAX_SAFE_INTEGER;
      const { changes } = this.stmts.pruneRemoved.run(oldest, PRUNE_STEP_ROWS);
      if (changes < PRUNE_STEP_ROWS) return;
      await yieldToEventLoop();
    }
  }

  /**
   * One transaction for the whole batch (one commit, the throughput lever); writes apply in order and
   * each sees the ones before it, so the results equal applying them one by one. If the batch fails
   * (I/O error), nothing of it is stored and the promise rejects: redeliver it.
   */
  async applyBatch(writes: readonly AspectWrite[]): Promise<readonly ApplyResult[]> {
    writes.forEach(checkWrite);
    if (writes.length === 0) return [];
    const results = this.applyInTransaction(writes);
    this.recordedSincePrune += writes.length;
    if (this.recordedSincePrune >= Math.max(1000, this.maxRequestRows / 10)) {
      // Between two timed prunes, a burst would overshoot the row bound by all it writes: prune now,
      // after this batch has been answered.
      this.recordedSincePrune = 0;
      setImmediate(() => void this.pruneRequests().catch(() => undefined));
    }
    return results;
  }

  async get(urn: string, aspect: string, version = 0): Promise<StoredAspect | null> {
    const row = this.stmts.getVersion.get(urn, aspect, version);
    return row === undefined ? null : storedAspectOfRow(row);
  }

  async getLatest(urn: string, aspects?: readonly string[]): Promise<readonly StoredAspect[]> {
    if (aspects === undefined) return this.stmts.latestOfEntity.all(urn).map(storedAspectOfRow);
    const names = [...new Set(aspects)];
    if (names.length === 0) return [];
    const sql = `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE urn = ? AND version = 0
      AND aspect IN (${placeholders(names.length)}) ORDER BY aspect`;
    return this.queries
      .get(sql)
      .all(urn, ...names)
      .map((row) => storedAspectOfRow(row as EncodedAspectRow));
  }

  async getLatestMany(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<ReadonlyMap<string, readonly StoredAspect[]>> {
    const byUrn = new Map<string, StoredAspect[]>();
    const names = aspects === undefined ? undefined : [...new Set(aspects)];
    if (names !== undefined && names.length === 0) return byUrn;
    const unique = [...new Set(urns)];
    for (let at = 0; at < unique.length; at += IN_CHUNK) {
      const chunk = unique.slice(at, at + IN_CHUNK);
      const aspectFilter = names === undefined ? '' : `AND aspect IN (${placeholders(names.length)})`;
      const sql = `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE version = 0
        AND urn IN (${placeholders(chunk.length)}) ${aspectFilter} ORDER BY urn, aspect`;
      for (const row of this.queries.get(sql).all(...chunk, ...(names ?? []))) {
        const stored = storedAspectOfRow(row as EncodedAspectRow);
        const list = byUrn.get(stored.urn);
        if (list === undefined) byUrn.set(stored.urn, [stored]);
        else list.push(stored);
      }
    }
    return byUrn;
  }

  async listVersions(urn: string, aspect: string): Promise<readonly StoredAspect[]> {
    return this.stmts.listVersions.all(urn, aspect).map(storedAspectOfRow);
  }

  async scan(options: ScanOptions): Promise<ScanPage> {
    checkScanOptions(options);
    if (options.limit === 0) return { items: [] };
    const { clauses, params } = filterClauses(options);
    if (options.after !== undefined) {
      const position = decodeScanCursor(options.after);
      clauses.push('(urn, aspect) > (?, ?)');
      params.push(position.urn, position.aspect);
    }
    // One row more than asked tells whether another page exists, so the last page has no cursor.
    const sql = `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE ${clauses.join(' AND ')}
      ORDER BY urn, aspect LIMIT ? OFFSET ?`;
    const rows = this.queries
      .get(sql)
      .all(...params, options.limit + 1, options.start ?? 0) as EncodedAspectRow[];
    const items = rows.slice(0, options.limit).map(storedAspectOfRow);
    const last = items[items.length - 1];
    if (rows.length <= options.limit || last === undefined) return { items };
    return { items, next: encodeScanCursor(last) };
  }

  async count(options: Pick<ScanOptions, 'aspect' | 'urnLike'> = {}): Promise<number> {
    const { clauses, params } = filterClauses(options);
    const sql = `SELECT COUNT(*) AS n FROM aspects WHERE ${clauses.join(' AND ')}`;
    return (this.queries.get(sql).get(...params) as { n: number }).n;
  }

  async findRunRows(options: RunRowsOptions): Promise<readonly StoredAspect[]> {
    checkPage(options.limit, options.start);
    if (options.limit === 0) return [];
    // IS, which also matches NULL (the default run): SQLite seeks the run in aspects_latest_by_run.
    const sql = `SELECT ${ASPECT_COLUMNS} FROM aspects WHERE version = 0 AND run_id IS ?
      ORDER BY urn, aspect LIMIT ? OFFSET ?`;
    return this.queries
      .get(sql)
      .all(storedRunId(options.runId), options.limit, options.start ?? 0)
      .map((row) => storedAspectOfRow(row as EncodedAspectRow));
  }

  async listRuns(options: {
    readonly start?: number;
    readonly limit: number;
  }): Promise<readonly RunSummary[]> {
    checkPage(options.limit, options.start);
    if (options.limit === 0) return [];
    // Grouped along aspects_latest_by_run, which holds every column read: the table is not touched.
    // Ties are ordered by the run id as listed, the default run by its name.
    const sql = `SELECT run_id, COUNT(*) AS rows, MAX(last_observed) AS last
      FROM aspects WHERE version = 0 GROUP BY run_id
      ORDER BY last DESC, coalesce(run_id, '${DEFAULT_RUN_ID}') LIMIT ? OFFSET ?`;
    const rows = this.queries.get(sql).all(options.limit, options.start ?? 0) as {
      run_id: unknown;
      rows: number;
      last: number;
    }[];
    return rows.map((r) => ({ runId: runIdOf(r.run_id), rows: r.rows, lastObserved: Number(r.last) }));
  }

  async ping(): Promise<void> {
    if (!this.db.open) throw new Error('the aspect store is closed');
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.pruning?.catch(() => undefined);
    if (this.db.open) this.db.close();
  }
}

/**
 * WHERE terms shared by scan and count. `version = 0` is written literally so SQLite can use the
 * partial indices; urnLike runs as the equivalent GLOB (see likeToGlob).
 */
function filterClauses(options: Pick<ScanOptions, 'urn' | 'aspect' | 'urnLike'>): {
  clauses: string[];
  params: (string | number)[];
} {
  const clauses = ['version = 0'];
  const params: (string | number)[] = [];
  if (options.urn !== undefined) {
    clauses.push('urn = ?');
    params.push(options.urn);
  }
  if (options.aspect !== undefined) {
    clauses.push('aspect = ?');
    params.push(options.aspect);
  }
  if (options.urnLike !== undefined) {
    clauses.push('urn GLOB ?');
    params.push(likeToGlob(options.urnLike));
  }
  return { clauses, params };
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function checkScanOptions(options: ScanOptions): void {
  if (!Number.isInteger(options.limit) || options.limit < 0) {
    throw new TypeError(`scan limit must be a non-negative integer, got ${options.limit}`);
  }
  if (options.start !== undefined && (!Number.isInteger(options.start) || options.start < 0)) {
    throw new TypeError(`scan start must be a non-negative integer, got ${options.start}`);
  }
  if (options.start !== undefined && options.after !== undefined) {
    throw new TypeError('scan takes either start or after, not both');
  }
}

function checkPage(limit: number, start: number | undefined): void {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new TypeError(`limit must be a non-negative integer, got ${limit}`);
  }
  if (start !== undefined && (!Number.isInteger(start) || start < 0)) {
    throw new TypeError(`start must be a non-negative integer, got ${start}`);
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegativeInteger(pages: number): number {
  if (!Number.isInteger(pages) || pages < 0)
    throw new RangeError(`autoCheckpointPages must be a non-negative integer, got ${pages}`);
  return pages;
}
