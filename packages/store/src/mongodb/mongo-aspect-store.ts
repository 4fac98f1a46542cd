import type { Collection, Filter } from 'mongodb';
import { checkWrite } from '../write-rules.js';
import type {
  ApplyResult,
  SystemMetadata,
  AspectStore,
  AspectWrite,
  RunRowsOptions,
  RunSummary,
  ScanOptions,
  ScanPage,
  StoredAspect,
  StoreWorkStats,
} from '../port.js';
import { DEFAULT_RUN_ID } from '../write-rules.js';
import { decodeScanCursor, encodeScanCursor } from '../scan-cursor.js';
import { applyRound } from './apply-round.js';
import { aspectId, runFields, toStoredAspect, type AspectDocument } from './aspect-document.js';
import { KeyedMutex } from './keyed-mutex.js';
import { likeToRegex } from './like-to-regex.js';
import { CommandTally } from './command-tally.js';
import { StoreConnection } from './store-connection.js';
import { classifyMongoError } from './mongo-errors.js';
import { planRounds } from './plan-rounds.js';
import { ensureCollections } from './mongo-schema.js';
import { learnIdLookup } from './id-lookup.js';
import {
  findByIds,
  type PendingWrite,
  type RequestDocument,
  type StoreLogger,
  type WriteContext,
  type WriteHooks,
} from './write-context.js';

export interface MongoAspectStoreOptions {
  /** mongodb:// or mongodb+srv:// URI (MongoDB 6/7, or a MongoDB-wire server such as FerretDB). */
  readonly uri: string;
  /** Database to use; default: the URI's database, else `catalog`. */
  readonly databaseName?: string;
  readonly logger?: StoreLogger;
  /** How long a request id is remembered for idempotent redelivery; default 7 days. */
  readonly requestRetentionMs?: number;
  /** At most this many request ids are remembered; the oldest are forgotten first. Default 1,000,000. */
  readonly maxRequestRows?: number;
  /** How often request ids are pruned in the background (see pruneRequests); 0 never. Default 60 s. */
  readonly requestPruneIntervalMs?: number;
  /** Milliseconds since the epoch; injected so tests control lastObserved, pruning and claim age. */
  readonly clock?: () => number;
  /** A history version claimed this long ago by a writer that never finished is taken over; 30 s. */
  readonly orphanClaimMs?: number;
  /**
   * The driver reporting the server unreachable this long while a new connection reaches it replaces
   * the client (see StoreConnection); 0 never. Default 30 s.
   */
  readonly reviveAfterMs?: number;
  /** Fault injection for tests: a hook that throws simulates a crash between two steps of a write. */
  readonly hooks?: WriteHooks;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_INTERVAL_MS = 60_000;
const DEFAULT_MAX_REQUEST_ROWS = 1_000_000;
/**
 * On a server that scans the collection for an appliedAt filter (FerretDB: about 25 ms of its CPU per
 * 1,000 recorded ids), the sweep for ids past their retention runs at most this often, and at most every
 * tenth of the retention: an id is then remembered up to 1.1 times the retention, and a million of
 * them cost a scan an hour rather than one a minute.
 */
const UNINDEXED_AGE_SWEEP_MS = 60 * 60 * 1000;
/** Request ids forgotten per delete beyond the row bound. */
const PRUNE_STEP_ROWS = 5_000;
const DEFAULT_ORPHAN_CLAIM_MS = 30_000;
/** Rounds a write may lose to other writers before the batch fails (retriable) instead. */
const MAX_ATTEMPTS = 60;
/** URNs per getLatestMany query. */
const URN_CHUNK = 500;
/** Runs whose newest row listRuns reads at once. */
const RUN_CHUNK = 16;
/** Documents backfillRunFields reads and updates per round. */
const BACKFILL_BATCH = 1000;

/** Connects, creates the collections and indexes when missing, and returns the store. */
export async function openMongoAspectStore(options: MongoAspectStoreOptions): Promise<MongoAspectStore> {
  const tally = new CommandTally();
  let connection: StoreConnection | undefined;
  try {
    connection = await StoreConnection.open({
      uri: options.uri,
      databaseName: options.databaseName ?? databaseOf(options.uri),
      tally,
      clock: options.clock ?? Date.now,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.reviveAfterMs === undefined ? {} : { reviveAfterMs: options.reviveAfterMs }),
    });
    const { secondaryIndexes } = await ensureCollections(connection.db);
    await learnIdLookup(connection.db, 'aspects');
    return new MongoAspectStore(connection, options, tally, secondaryIndexes);
  } catch (error) {
    await connection?.close().catch(() => undefined);
    throw classifyMongoError(error, 'open');
  }
}

/** The database named in the URI's path, else `catalog`. */
export function databaseOf(uri: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]*)/.exec(uri)?.[1] ?? '';
  const name = decodeURIComponent(path);
  return name === '' ? 'catalog' : name;
}

/**
 * The AspectStore on MongoDB (and MongoDB-wire servers without transactions, like FerretDB). How a
 * write stays atomic and idempotent without transactions is described at the top of apply-round.ts.
 */
export class MongoAspectStore implements AspectStore {
  private readonly clock: () => number;
  private readonly retentionMs: number;
  private readonly maxRequestRows: number;
  private readonly pruneTimer: NodeJS.Timeout | undefined;
  private pruning: Promise<number> | undefined;
  /** When the last sweep of request ids past their retention began (clock milliseconds). */
  private lastAgeSweep = Number.NEGATIVE_INFINITY;
  /** How often that sweep runs: every prune where appliedAt is indexed, else rarer (see pruneInSteps). */
  private readonly ageSweepEveryMs: number;
  /** Request ids recorded since the last prune began; past a tenth of the row bound, a prune is due. */
  private recordedSincePrune = 0;
  private readonly orphanClaimMs: number;
  private readonly mutex = new KeyedMutex();
  private closed = false;
  private readonly work = { batches: 0, writes: 0, rounds: 0 };

  constructor(
    /** The client and collections; the client can be replaced (see StoreConnection), so never kept. */
    readonly connection: StoreConnection,
    private readonly options: MongoAspectStoreOptions,
    private readonly tally: CommandTally,
    /** Whether the server answers filters on appliedAt from its index (see ensureCollections). */
    secondaryIndexes = true,
  ) {
    this.clock = options.clock ?? Date.now;
    this.retentionMs = options.requestRetentionMs ?? DEFAULT_RETENTION_MS;
    this.ageSweepEveryMs = secondaryIndexes
      ? 0
      : Math.min(UNINDEXED_AGE_SWEEP_MS, Math.floor(this.retentionMs / 10));
    this.maxRequestRows = options.maxRequestRows ?? DEFAULT_MAX_REQUEST_ROWS;
    const pruneIntervalMs = options.requestPruneIntervalMs ?? PRUNE_INTERVAL_MS;
    if (pruneIntervalMs > 0) {
      this.pruneTimer = setInterval(() => {
        this.pruneRequests().catch((error: unknown) =>
          this.options.logger?.warn({ err: error }, 'pruning request ids failed; will retry'),
        );
      }, pruneIntervalMs);
      // Pruning must not keep a process alive on its own.
      this.pruneTimer.unref();
    }
    this.orphanClaimMs = options.orphanClaimMs ?? DEFAULT_ORPHAN_CLAIM_MS;
  }

  /**
   * Writes run in rounds of independent writes (see planRounds), each round in a fixed number of
   * commands; writes that lose a race with another process go round again. A failure rejects the
   * batch: what it applied so far is idempotent under redelivery.
   */
  async applyBatch(writes: readonly AspectWrite[]): Promise<readonly ApplyResult[]> {
    writes.forEach(checkWrite);
    if (writes.length === 0) return [];
    let results: ApplyResult[];
    try {
      results = await this.mutex.withKeys(
        writes.map((w) => w.urn),
        () => this.applyInRounds(writes),
      );
    } catch (error) {
      throw classifyMongoError(error, 'applyBatch');
    }
    this.work.batches += 1;
    this.work.writes += writes.length;
    this.recordedSincePrune += writes.length;
    if (this.recordedSincePrune >= Math.max(1000, this.maxRequestRows / 10)) {
      // Between two timed prunes, a burst would overshoot the row bound by all it writes: prune now,
      // without holding up this batch.
      this.recordedSincePrune = 0;
      this.pruneRequests().catch((error: unknown) =>
        this.options.logger?.warn({ err: error }, 'pruning request ids failed; will retry'),
      );
    }
    return results;
  }

  private async applyInRounds(writes: readonly AspectWrite[]): Promise<ApplyResult[]> {
    const results: (ApplyResult | undefined)[] = new Array<ApplyResult | undefined>(writes.length);
    for (const round of planRounds(writes)) {
      let pending: readonly PendingWrite[] = round.map((index) => ({
        index,
        write: writes[index] as AspectWrite,
        attempt: 0,
      }));
      while (pending.length > 0) {
        this.work.rounds += 1;
        const outcome = await applyRound(this.context(), pending);
        for (const [index, result] of outcome.done) results[index] = result;
        pending = outcome.retry;
        const worst = Math.max(0, ...pending.map((p) => p.attempt));
        if (worst >= MAX_ATTEMPTS) {
          throw new Error(
            `aspect writes still contended after ${MAX_ATTEMPTS} rounds (${pending.length} writes)`,
          );
        }
        if (pending.length > 0) {
          this.options.logger?.debug(
            { writes: pending.length, attempt: worst },
            'writes lost a race, retrying',
          );
          await backoff(worst);
        }
      }
    }
    return results.map((result, index) => {
      if (result === undefined) throw new Error(`no result for write ${index}`);
      return result;
    });
  }

  private get aspects(): Collection<AspectDocument> {
    return this.connection.aspects;
  }

  private get requests(): Collection<RequestDocument> {
    return this.connection.requests;
  }

  workStats(): StoreWorkStats {
    return { ...this.work, commands: this.tally.snapshot() };
  }

  private context(): WriteContext {
    return {
      aspects: this.aspects,
      requests: this.requests,
      now: this.clock(),
      orphanClaimMs: this.orphanClaimMs,
      ...(this.options.hooks === undefined ? {} : { hooks: this.options.hooks }),
      ...(this.options.logger === undefined ? {} : { logger: this.options.logger }),
    };
  }

  async get(urn: string, aspect: string, version = 0): Promise<StoredAspect | null> {
    return this.read('get', async () => {
      if (version === 0) {
        const doc = await this.aspects.findOne({ _id: aspectId(urn, aspect, 0) });
        return doc === null ? null : toStoredAspect(doc);
      }
      // A history row is a version only below the counter: above it is a claim not yet completed.
      const docs = await findByIds(this.aspects, [aspectId(urn, aspect, 0), aspectId(urn, aspect, version)]);
      const latest = docs.get(aspectId(urn, aspect, 0));
      const row = docs.get(aspectId(urn, aspect, version));
      if (row === undefined || latest?.seq === undefined || version > latest.seq) return null;
      return toStoredAspect(row);
    });
  }

  async getLatest(urn: string, aspects?: readonly string[]): Promise<readonly StoredAspect[]> {
    return this.read('getLatest', async () => {
      if (aspects === undefined) {
        const docs = await this.aspects.find({ version: 0, urn }).sort({ aspect: 1 }).toArray();
        return docs.map(toStoredAspect);
      }
      const docs = await findByIds(
        this.aspects,
        [...new Set(aspects)].map((a) => aspectId(urn, a, 0)),
      );
      return [...docs.values()].sort(byAspect).map(toStoredAspect);
    });
  }

  async getLatestMany(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<ReadonlyMap<string, readonly StoredAspect[]>> {
    return this.read('getLatestMany', async () => {
      const byUrn = new Map<string, StoredAspect[]>();
      const names = aspects === undefined ? undefined : [...new Set(aspects)];
      if (names !== undefined && names.length === 0) return byUrn;
      const unique = [...new Set(urns)];
      for (let at = 0; at < unique.length; at += URN_CHUNK) {
        const chunk = unique.slice(at, at + URN_CHUNK);
        const docs =
          names === undefined
            ? await this.aspects.find({ version: 0, urn: { $in: chunk } }).toArray()
            : [
                ...(
                  await findByIds(
                    this.aspects,
                    chunk.flatMap((u) => names.map((a) => aspectId(u, a, 0))),
                  )
                ).values(),
              ];
        for (const doc of docs.sort(byUrnThenAspect)) {
          const stored = toStoredAspect(doc);
          const list = byUrn.get(stored.urn);
          if (list === undefined) byUrn.set(stored.urn, [stored]);
          else list.push(stored);
        }
      }
      return byUrn;
    });
  }

  async existingUrns(urns: readonly string[]): Promise<ReadonlySet<string>> {
    return this.read('existingUrns', async () => {
      const found = new Set<string>();
      const unique = [...new Set(urns)];
      for (let at = 0; at < unique.length; at += URN_CHUNK) {
        const chunk = unique.slice(at, at + URN_CHUNK);
        // The urns alone: no value crosses the wire.
        const docs = await this.aspects
          .find({ version: 0, urn: { $in: chunk } }, { projection: { _id: 0, urn: 1 } })
          .toArray();
        for (const doc of docs) found.add(doc.urn);
      }
      return found;
    });
  }

  async listVersions(urn: string, aspect: string): Promise<readonly StoredAspect[]> {
    return this.read('listVersions', async () => {
      const docs = await this.aspects.find({ urn, aspect }).sort({ version: -1 }).toArray();
      const latest = docs.find((d) => d.version === 0);
      if (latest?.seq === undefined) return [];
      const history = docs.filter((d) => d.version > 0 && d.version <= (latest.seq ?? 0));
      return [latest, ...history].map(toStoredAspect);
    });
  }

  async scan(options: ScanOptions): Promise<ScanPage> {
    checkScanOptions(options);
    if (options.limit === 0) return { items: [] };
    return this.read('scan', async () => {
      const filter = scanFilter(options);
      if (options.after !== undefined) {
        const { urn, aspect } = decodeScanCursor(options.after);
        (filter.$and ??= []).push({ $or: [{ urn: { $gt: urn } }, { urn, aspect: { $gt: aspect } }] });
      }
      // One row more than asked tells whether another page exists, so the last page has no cursor.
      const docs = await this.aspects
        .find(filter)
        .sort({ urn: 1, aspect: 1 })
        .skip(options.start ?? 0)
        .limit(options.limit + 1)
        .toArray();
      const items = docs.slice(0, options.limit).map(toStoredAspect);
      const last = items[items.length - 1];
      if (docs.length <= options.limit || last === undefined) return { items };
      return { items, next: encodeScanCursor(last) };
    });
  }

  async count(options: Pick<ScanOptions, 'aspect' | 'urnLike'> = {}): Promise<number> {
    return this.read('count', () => this.aspects.countDocuments(scanFilter(options)));
  }

  async findRunRows(options: RunRowsOptions): Promise<readonly StoredAspect[]> {
    checkPage(options.limit, options.start);
    if (options.limit === 0) return [];
    return this.read('findRunRows', async () => {
      const docs = await this.aspects
        .find({ version: 0, runId: options.runId })
        .sort({ version: 1, runId: 1, urn: 1, aspect: 1 })
        .skip(options.start ?? 0)
        .limit(options.limit)
        .toArray();
      return docs.map(toStoredAspect);
    });
  }

  async listRuns(options: {
    readonly start?: number;
    readonly limit: number;
  }): Promise<readonly RunSummary[]> {
    checkPage(options.limit, options.start);
    if (options.limit === 0) return [];
    return this.read('listRuns', async () => {
      // FerretDB's $group has $sum but no $max: count per run here, then each run's newest row below.
      const groups = await this.aspects
        .aggregate<{ _id: string | null; rows: number }>([
          { $match: { version: 0 } },
          { $group: { _id: '$runId', rows: { $sum: 1 } } },
        ])
        .toArray();
      const lasts = await inChunks(groups, RUN_CHUNK, (group) => this.newestObserved(group._id));
      // Documents stored before the run fields were kept group under null: the default run.
      const merged = new Map<string, RunSummary>();
      groups.forEach((group, i) => {
        const runId = group._id ?? DEFAULT_RUN_ID;
        const before = merged.get(runId);
        merged.set(runId, {
          runId,
          rows: (before?.rows ?? 0) + group.rows,
          lastObserved: Math.max(before?.lastObserved ?? 0, lasts[i] ?? 0),
        });
      });
      const start = options.start ?? 0;
      return [...merged.values()]
        .sort(
          (a, b) => b.lastObserved - a.lastObserved || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0),
        )
        .slice(start, start + options.limit);
    });
  }

  /** The newest lastObserved among a run's versions 0 (0 for documents stored without one). */
  private async newestObserved(runId: string | null): Promise<number> {
    const [doc] = await this.aspects
      .find({ version: 0, runId: runId ?? { $exists: false } })
      .sort({ version: 1, runId: 1, lastObserved: -1 })
      .limit(1)
      .project<{ lastObserved?: number }>({ _id: 0, lastObserved: 1 })
      .toArray();
    return typeof doc?.lastObserved === 'number' ? doc.lastObserved : 0;
  }

  /**
   * Documents (every version) stored before runId and lastObserved were kept get them, computed from
   * their systemMetadata text with the write path's rule (runFields: DEFAULT_RUN_ID without a run id,
   * createdOn without lastObserved). Read in _id order a batch at a time, computed here and written
   * with unordered updateOne $set (no pipeline updates: FerretDB has none). Each update applies only
   * while the document still lacks runId and holds the system metadata read, so a write in between
   * (which sets the fields itself) wins. Idempotent; resolves with the documents it updated.
   */
  async backfillRunFields(options: { readonly batchSize?: number } = {}): Promise<number> {
    const batchSize = options.batchSize ?? BACKFILL_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new TypeError(`batchSize must be a positive integer, got ${batchSize}`);
    }
    return this.read('backfillRunFields', async () => {
      let updated = 0;
      let after: string | undefined;
      for (;;) {
        const docs = await this.aspects
          .find({ runId: { $exists: false }, ...(after === undefined ? {} : { _id: { $gt: after } }) })
          .sort({ _id: 1 })
          .limit(batchSize)
          .project<Pick<AspectDocument, '_id' | 'systemMetadata' | 'createdOn'>>({
            _id: 1,
            systemMetadata: 1,
            createdOn: 1,
          })
          .toArray();
        if (docs.length === 0) break;
        const result = await this.aspects.bulkWrite(
          docs.map((doc) => ({
            updateOne: {
              filter: { _id: doc._id, runId: { $exists: false }, systemMetadata: doc.systemMetadata },
              update: { $set: runFields(parseSystemMetadata(doc.systemMetadata), doc.createdOn) },
            },
          })),
          { ordered: false },
        );
        updated += result.modifiedCount;
        after = docs[docs.length - 1]!._id;
        if (docs.length < batchSize) break;
      }
      return updated;
    });
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('the aspect store is closed');
    await this.aspects.db.command({ ping: 1 });
  }

  /**
   * Forgets request ids older than requestRetentionMs, then the oldest beyond maxRequestRows (by
   * appliedAt), in deletes of a bounded size. A periodic delete, not a TTL index: FerretDB 1.x refuses
   * expireAfterSeconds, and appliedAt is a number, not a date.
   */
  pruneRequests(): Promise<number> {
    this.pruning ??= this.read('pruneRequests', () => this.pruneInSteps()).finally(
      () => (this.pruning = undefined),
    );
    return this.pruning;
  }

  private async pruneInSteps(): Promise<number> {
    this.recordedSincePrune = 0;
    let forgotten = 0;
    const now = this.clock();
    if (now - this.lastAgeSweep >= this.ageSweepEveryMs) {
      this.lastAgeSweep = now;
      const { deletedCount } = await this.requests.deleteMany({ appliedAt: { $lt: now - this.retentionMs } });
      forgotten += deletedCount;
    }
    for (;;) {
      if (this.closed) break;
      const excess = (await this.recordedCount()) - this.maxRequestRows;
      if (excess <= 0) break;
      const oldest = await this.requests
        .find({}, { projection: { _id: 1 } })
        .sort({ appliedAt: 1, _id: 1 })
        .limit(Math.min(excess, PRUNE_STEP_ROWS))
        .toArray();
      if (oldest.length === 0) break;
      const { deletedCount: bounded } = await this.requests.deleteMany({
        _id: { $in: oldest.map((doc) => doc._id) },
      });
      forgotten += bounded;
    }
    if (forgotten > 0) this.options.logger?.debug({ forgotten }, 'pruned recorded request results');
    return forgotten;
  }

  /**
   * The number of recorded request ids, from the collection's statistics (`$collStats` count: metadata
   * on MongoDB, a row count on FerretDB) rather than a count query, which FerretDB answers by decoding
   * every document. A server without `$collStats` is asked with countDocuments.
   */
  private async recordedCount(): Promise<number> {
    try {
      const shards = await this.requests
        .aggregate<{ count?: number }>([{ $collStats: { count: {} } }])
        .toArray();
      return shards.reduce((sum, shard) => sum + (shard.count ?? 0), 0);
    } catch {
      return this.requests.countDocuments({});
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.pruning?.catch(() => undefined);
    await this.connection.close();
  }

  private async read<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw classifyMongoError(error, operation);
    }
  }
}

type ScanFilter = Filter<AspectDocument> & { $and?: Filter<AspectDocument>[] };

function scanFilter(options: Pick<ScanOptions, 'urn' | 'aspect' | 'urnLike'>): ScanFilter {
  const and: Filter<AspectDocument>[] = [];
  if (options.urnLike !== undefined) and.push({ urn: { $regex: likeToRegex(options.urnLike) } });
  return {
    version: 0,
    ...(options.urn === undefined ? {} : { urn: options.urn }),
    ...(options.aspect === undefined ? {} : { aspect: options.aspect }),
    ...(and.length === 0 ? {} : { $and: and }),
  };
}

function byAspect(a: AspectDocument, b: AspectDocument): number {
  return a.aspect < b.aspect ? -1 : a.aspect > b.aspect ? 1 : 0;
}

function byUrnThenAspect(a: AspectDocument, b: AspectDocument): number {
  return a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : byAspect(a, b);
}

async function backoff(attempt: number): Promise<void> {
  const ms = Math.min(200, 2 ** Math.min(attempt, 8)) * (0.5 + Math.random());
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Stored system metadata text as an object; unreadable text counts as none (the default run). */
function parseSystemMetadata(text: string | null): SystemMetadata | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as SystemMetadata)
      : null;
  } catch {
    return null;
  }
}

/** `read` of every item, `size` at a time, results in item order. */
async function inChunks<T, R>(
  items: readonly T[],
  size: number,
  read: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let at = 0; at < items.length; at += size) {
    out.push(...(await Promise.all(items.slice(at, at + size).map(read))));
  }
  return out;
}

function checkPage(limit: number, start: number | undefined): void {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new TypeError(`limit must be a non-negative integer, got ${limit}`);
  }
  if (start !== undefined && (!Number.isInteger(start) || start < 0)) {
    throw new TypeError(`start must be a non-negative integer, got ${start}`);
  }
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
