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
import { storedAspectOfRow, type EncodedAspectRow } from './aspect-row.js';
import { vacuumAfterCompaction } from './compact-aspects.js';
import { ASPECT_ID, JOINED_COLUMNS, URN_ID } from './keyed-by-ids.js';
import { likeToGlob } from './like-to-glob.js';
import { byAspectName, ID_COLUMNS, pageInUrnOrder, withTexts, type IdRow } from './rows-by-ids.js';
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
/** The schema steps that rebuild the aspects table smaller (compact-aspects.ts, keyed-by-ids.ts). */
const COMPACTION_STEPS: readonly number[] = [4, 5];
/**
 * Below this many matching rows, a read in URN order by aspect or run sorts the rows from its index
 * (a few milliseconds); at or above it, it walks the entities in URN order (see latestRowsInUrnOrder).
 */
const SORTED_READ_MAX_ROWS = 5_000;

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
      if (migrated.from > 0 && migrated.applied.some((step) => COMPACTION_STEPS.includes(step)))
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
    this.applyInTransaction = (writes) => {
      try {
        return transaction.immediate(writes);
      } catch (error) {
        // The batch rolled back, with any dictionary ids it added (see DictionaryCache).
        this.stmts.aspectNames.forget();
        this.stmts.actors.forget();
        throw error;
      }
    };
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
   * Drops what deletes removed (rows, and the URNs of entities gone) once no request record can name
   * it any more: a record names a row or a URN id only if it was applied before the row or the URN
   * was removed, so what was removed before the oldest record left was applied is named by none. Runs
   * after the request ids are pruned, so it follows both bounds.
   */
  private async pruneRemovedAspects(): Promise<void> {
    for (const prune of [this.stmts.pruneRemoved, this.stmts.pruneRemovedUrns]) {
      for (;;) {
        if (!this.db.open) return;
        const oldest = this.stmts.oldestRequest.get()?.applied_at ?? Number.MAX_SAFE_INTEGER;
        const { changes } = prune.run(oldest, PRUNE_STEP_ROWS);
        if (changes < PRUNE_STEP_ROWS) break;
        await yieldToEventLoop();
      }
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
    // A name the file has never stored has no row.
    const ids = [...new Set(aspects)].flatMap((name) => this.stmts.aspectNames.find(name) ?? []);
    if (ids.length === 0) return [];
    const sql = `SELECT ${ID_COLUMNS} FROM aspects a WHERE a.urn_id = ${URN_ID('?')} AND a.version = 0
      AND a.aspect_id IN (${placeholders(ids.length)})`;
    const rows = this.queries.get(sql).all(urn, ...ids) as IdRow[];
    return byAspectName(rows.map((row) => withTexts(row, urn, this.stmts))).map(storedAspectOfRow);
  }

  async getLatestMany(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<ReadonlyMap<string, readonly StoredAspect[]>> {
    const byUrn = new Map<string, StoredAspect[]>();
    // A name the file has never stored has no row.
    const ids =
      aspects === undefined
        ? undefined
        : [...new Set(aspects)].flatMap((name) => this.stmts.aspectNames.find(name) ?? []);
    if (ids !== undefined && ids.length === 0) return byUrn;
    const unique = [...new Set(urns)];
    for (let at = 0; at < unique.length; at += IN_CHUNK) {
      const chunk = unique.slice(at, at + IN_CHUNK);
      const aspectFilter = ids === undefined ? '' : `AND a.aspect_id IN (${placeholders(ids.length)})`;
      // Each entity's rows together, in URN order (the urns index, sought once per URN).
      const sql = `SELECT u.urn AS urn, ${ID_COLUMNS} FROM urns u CROSS JOIN aspects a
        WHERE u.urn IN (${placeholders(chunk.length)}) AND a.urn_id = u.id AND a.version = 0 ${aspectFilter}
        ORDER BY u.urn`;
      const rows = this.queries.get(sql).all(...chunk, ...(ids ?? [])) as IdRow[];
      for (let row = 0; row < rows.length;) {
        const urn = rows[row]!.urn!;
        const entity: EncodedAspectRow[] = [];
        for (; row < rows.length && rows[row]!.urn === urn; row += 1)
          entity.push(withTexts(rows[row]!, urn, this.stmts));
        byUrn.set(urn, byAspectName(entity).map(storedAspectOfRow));
      }
    }
    return byUrn;
  }

  async listVersions(urn: string, aspect: string): Promise<readonly StoredAspect[]> {
    return this.stmts.listVersions.all(urn, aspect).map(storedAspectOfRow);
  }

  async existingUrns(urns: readonly string[]): Promise<ReadonlySet<string>> {
    const found = new Set<string>();
    const unique = [...new Set(urns)];
    for (let at = 0; at < unique.length; at += IN_CHUNK) {
      const chunk = unique.slice(at, at + IN_CHUNK);
      // Keys only: the urns' unique index, then each entity's key in aspects; no value is read.
      const sql = `SELECT u.urn AS urn FROM urns u WHERE u.urn IN (${placeholders(chunk.length)})
        AND EXISTS (SELECT 1 FROM aspects a WHERE a.urn_id = u.id AND a.version = 0)`;
      for (const row of this.queries.get(sql).all(...chunk)) found.add((row as { urn: string }).urn);
    }
    return found;
  }

  async scan(options: ScanOptions): Promise<ScanPage> {
    checkScanOptions(options);
    if (options.limit === 0) return { items: [] };
    const { clauses, params } = urnClauses(options);
    if (options.aspect !== undefined) {
      clauses.push(`a.aspect_id = ${ASPECT_ID('?')}`);
      params.push(options.aspect);
    }
    const after = options.after === undefined ? undefined : decodeScanCursor(options.after);
    // A rare aspect is read from its index and sorted; a common one (or none) in URN order.
    const fromIndex =
      options.aspect !== undefined &&
      options.urn === undefined &&
      this.fewRows(`aspect_id = ${ASPECT_ID('?')}`, options.aspect);
    // One row more than asked tells whether another page exists, so the last page has no cursor.
    const rows = this.latestRowsInUrnOrder(fromIndex, clauses, params, {
      limit: options.limit + 1,
      start: options.start ?? 0,
      ...(after === undefined ? {} : { after: { urn: after.urn, aspect: after.aspect } }),
    });
    const items = rows.slice(0, options.limit).map(storedAspectOfRow);
    const last = items[items.length - 1];
    if (rows.length <= options.limit || last === undefined) return { items };
    return { items, next: encodeScanCursor(last) };
  }

  async count(options: Pick<ScanOptions, 'aspect' | 'urnLike'> = {}): Promise<number> {
    // Over aspects alone when it can: with no filter SQLite counts the smallest index of version 0.
    const clauses = ['version = 0'];
    const params: string[] = [];
    if (options.aspect !== undefined) {
      clauses.push(`aspect_id = ${ASPECT_ID('?')}`);
      params.push(options.aspect);
    }
    if (options.urnLike !== undefined) {
      clauses.push('urn_id IN (SELECT id FROM urns WHERE urn GLOB ?)');
      params.push(likeToGlob(options.urnLike));
    }
    const sql = `SELECT COUNT(*) AS n FROM aspects WHERE ${clauses.join(' AND ')}`;
    return (this.queries.get(sql).get(...params) as { n: number }).n;
  }

  async findRunRows(options: RunRowsOptions): Promise<readonly StoredAspect[]> {
    checkPage(options.limit, options.start);
    if (options.limit === 0) return [];
    // The run's dictionary id; NULL (matched with IS) for the default run. A run never stored has none.
    const runText = storedRunId(options.runId);
    let runRow: number | null = null;
    if (runText !== null) {
      const found = this.queries.get('SELECT id FROM runs WHERE run_id = ?').get(runText) as
        { id: number } | undefined;
      if (found === undefined) return [];
      runRow = found.id;
    }
    const fromIndex = this.fewRows('run_id IS ?', runRow);
    return this.latestRowsInUrnOrder(fromIndex, ['a.run_id IS ?'], [runRow], {
      limit: options.limit,
      start: options.start ?? 0,
    }).map(storedAspectOfRow);
  }

  /**
   * Version-0 rows matching `clauses` (over a and u, see keyed-by-ids.ts), by URN then aspect name,
   * after `page.after` (a URN and aspect name), `page.start` of them skipped. URN ids do not follow URN
   * order, so there are two ways to read them:
   * - `fromIndex`: the matching rows from an index of `aspects` (by aspect, by run), each joined to its
   *   URN, all sorted: for a filter that matches few rows.
   * - otherwise the urns' unique index in URN order (from the cursor's URN, or over a GLOB's prefix),
   *   each entity's rows looked up, read until the page is full: for no filter, or one that matches
   *   many rows, where sorting them all for every page would cost more than the walk. SQLite gives an
   *   entity's rows in aspect id order; pageInUrnOrder puts them in name order, so SQLite neither
   *   joins the names and actors nor sorts.
   * CROSS JOIN fixes the loop order SQLite would otherwise pick from guesses.
   */
  private latestRowsInUrnOrder(
    fromIndex: boolean,
    clauses: readonly string[],
    params: readonly unknown[],
    page: {
      readonly limit: number;
      readonly start: number;
      readonly after?: { urn: string; aspect: string };
    },
  ): EncodedAspectRow[] {
    const where = [...clauses];
    const values = [...params];
    if (fromIndex) {
      if (page.after !== undefined) {
        // Row values over two tables: spelled out.
        where.push('u.urn >= ? AND (u.urn > ? OR n.name > ?)');
        values.push(page.after.urn, page.after.urn, page.after.aspect);
      }
      const sql = `SELECT ${JOINED_COLUMNS}
        FROM aspects a CROSS JOIN urns u CROSS JOIN aspect_names n CROSS JOIN actors c
        WHERE a.urn_id = u.id AND a.version = 0 AND n.id = a.aspect_id AND c.id = a.created_by
          ${where.map((clause) => `AND ${clause}`).join(' ')}
        ORDER BY u.urn, n.name LIMIT ? OFFSET ?`;
      return this.queries.get(sql).all(...values, page.limit, page.start) as EncodedAspectRow[];
    }
    if (page.after !== undefined) {
      // The urns index is sought from the cursor's URN; its entity's rows up to the cursor are
      // left out by pageInUrnOrder.
      where.push('u.urn >= ?');
      values.push(page.after.urn);
    }
    const sql = `SELECT u.urn AS urn, ${ID_COLUMNS} FROM urns u CROSS JOIN aspects a
      WHERE a.urn_id = u.id AND a.version = 0 ${where.map((clause) => `AND ${clause}`).join(' ')}
      ORDER BY u.urn`;
    const rows = this.queries.get(sql).iterate(...values) as IterableIterator<IdRow>;
    return pageInUrnOrder(rows, this.stmts, page);
  }

  /** Whether fewer than SORTED_READ_MAX_ROWS version-0 rows match `clause`, counted from its index. */
  private fewRows(clause: string, param: unknown): boolean {
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM aspects WHERE ${clause} AND version = 0 LIMIT ?)`;
    return (this.queries.get(sql).get(param, SORTED_READ_MAX_ROWS) as { n: number }).n < SORTED_READ_MAX_ROWS;
  }

  async listRuns(options: {
    readonly start?: number;
    readonly limit: number;
  }): Promise<readonly RunSummary[]> {
    checkPage(options.limit, options.start);
    if (options.limit === 0) return [];
    // Grouped along aspects_latest_by_run, which holds every column read: the table is not touched,
    // and a run's text is looked up once per run. Ties are ordered by the run id as listed, the
    // default run by its name.
    const sql = `SELECT r.run_id AS run_id, g.rows AS rows, g.last AS last
      FROM (SELECT run_id, COUNT(*) AS rows, MAX(last_observed) AS last
            FROM aspects WHERE version = 0 GROUP BY run_id) g
        LEFT JOIN runs r ON r.id = g.run_id
      ORDER BY g.last DESC, coalesce(r.run_id, '${DEFAULT_RUN_ID}') LIMIT ? OFFSET ?`;
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
 * WHERE terms of a scan over its URN (see latestRowsInUrnOrder's tables). urnLike runs as the
 * equivalent GLOB (see likeToGlob), which SQLite turns into a range of the urns index for a prefix.
 */
function urnClauses(options: Pick<ScanOptions, 'urn' | 'urnLike'>): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (options.urn !== undefined) {
    clauses.push('u.urn = ?');
    params.push(options.urn);
  }
  if (options.urnLike !== undefined) {
    clauses.push('u.urn GLOB ?');
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
