import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ProduceRecord } from '../port.js';
import {
  batchByPartition,
  Codec,
  decodeBatch,
  type DecodedRecord,
  type PartitionBatch,
} from './record-batch.js';
import {
  BATCH_OVERHEAD_BYTES,
  createLogSchema,
  prepareStatements,
  type LogStatements,
  type TopicTableRow,
} from './log-schema.js';

/**
 * The embedded log's storage: one SQLite file in WAL mode. Every write is a short transaction, so several
 * processes can share the file (SQLite serializes writers; `busy_timeout` makes them wait, not fail).
 *
 * Durability: with WAL and synchronous=NORMAL, a committed transaction is in the WAL file (written with
 * write(2), not yet fsync'ed). A process crash (kill -9, OOM, exception) cannot lose it because the data
 * already sits in the OS page cache; only a power loss or kernel crash can drop the last transactions.
 * `durability: 'power-loss'` sets synchronous=FULL, which fsyncs the WAL at every commit.
 */

export type Durability = 'process-crash' | 'power-loss';

export interface TopicRow {
  readonly id: number;
  readonly name: string;
  readonly partitions: number;
  readonly retentionMs: number;
  /** Size bound per partition (see BATCH_OVERHEAD_BYTES); -1 unbounded. */
  readonly retentionBytes: number;
}

/** What one retention step removed from the head of a partition. */
export interface TrimStep {
  readonly deleted: number;
  readonly bytes: number;
  /** True when the step stopped at its row limit: more may be due. */
  readonly more: boolean;
}

/** The one-off rebuild of a file created before incremental vacuum (see ensureIncrementalVacuum). */
export interface VacuumConversion {
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

export type StoredRecord = DecodedRecord;

/** How appended batches are stored: compressed with deflate (the default), or plain. */
export type Compression = 'deflate' | 'none';

/** A record placed on its partition, ready to append. */
export interface PlacedRecord {
  readonly topicId: number;
  readonly partition: number;
  readonly record: ProduceRecord;
  readonly timestamp: number;
}

function toTopicRow(row: TopicTableRow): TopicRow {
  return {
    id: row.id,
    name: row.name,
    partitions: row.partitions,
    retentionMs: row.retention_ms,
    retentionBytes: row.retention_bytes,
  };
}

/** A group's position not yet written: it rides along with the connection's next write transaction. */
interface DeferredCommit {
  readonly groupId: string;
  readonly topicId: number;
  readonly partition: number;
  readonly nextOffset: number;
}

export class LogDatabase {
  private readonly db: Database.Database;
  private readonly statements: LogStatements;
  private readonly codec: Codec;
  private readonly appendTransaction: (batches: readonly PartitionBatch[], records: number) => number[];
  private readonly commitsTransaction: () => void;
  private readonly trimTransaction: Database.Transaction<
    (
      topicId: number,
      partition: number,
      cutoff: number | undefined,
      maxBytes: number | undefined,
      limit: number,
    ) => TrimStep
  >;
  /** Deferred commits by group/topic/partition; reads of this connection see them at once. */
  private readonly deferred = new Map<string, DeferredCommit>();

  constructor(
    directory: string,
    durability: Durability,
    busyTimeoutMs: number,
    autoCheckpointPages: number,
    cacheKiB: number,
    compression: Compression,
  ) {
    this.codec = compression === 'none' ? Codec.none : Codec.deflate;
    mkdirSync(directory, { recursive: true });
    this.db = new Database(join(directory, 'eventlog.sqlite'), { timeout: busyTimeoutMs });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(durability === 'power-loss' ? 'synchronous = FULL' : 'synchronous = NORMAL');
    // Checkpoints (two fsyncs each) run inside whichever commit crosses the threshold and stall that
    // thread's event loop; the catalog raises the threshold and checkpoints from a background thread.
    // The size limit truncates the WAL after.
    this.db.pragma(`wal_autocheckpoint = ${checkpointPages(autoCheckpointPages)}`);
    this.db.pragma('journal_size_limit = 67108864');
    if (!Number.isInteger(cacheKiB) || cacheKiB <= 0)
      throw new RangeError(`cacheKiB must be a positive integer, got ${cacheKiB}`);
    this.db.pragma(`cache_size = -${cacheKiB}`);
    // Pages freed by retention go back to the file system (see releaseFreePages). It only takes effect on
    // a file with no tables yet; an older file is converted once by ensureIncrementalVacuum.
    this.db.pragma('auto_vacuum = INCREMENTAL');
    createLogSchema(this.db);
    this.statements = prepareStatements(this.db);
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads the partition end and then
    // upgrades to write could fail with SQLITE_BUSY against another process instead of waiting.
    const append = this.db.transaction((batches: readonly PartitionBatch[], records: number): number[] => {
      const ends = new Map<string, { topicId: number; partition: number; next: number; bytes: number }>();
      const offsets = new Array<number>(records);
      for (const { topicId, partition, batch, indices } of batches) {
        const slot = `${topicId}:${partition}`;
        let end = ends.get(slot);
        if (!end) {
          const next = this.statements.partitionEnd.get(topicId, partition)?.next_offset ?? 0;
          end = { topicId, partition, next, bytes: 0 };
          ends.set(slot, end);
        }
        const base = end.next;
        end.next += batch.count;
        end.bytes += batch.payload.length + BATCH_OVERHEAD_BYTES;
        this.statements.insertBatch.run(
          topicId,
          partition,
          end.next - 1,
          base,
          batch.count,
          batch.maxTimestamp,
          batch.codec,
          batch.payload,
        );
        indices.forEach((index, i) => (offsets[index] = base + i));
      }
      for (const end of ends.values())
        this.statements.setPartitionEnd.run(end.topicId, end.partition, end.next, end.bytes);
      this.writeDeferred();
      return offsets;
    });
    this.appendTransaction = (batches, records) => {
      const offsets = append.immediate(batches, records);
      this.deferred.clear();
      return offsets;
    };
    this.trimTransaction = this.db.transaction(
      (
        topicId: number,
        partition: number,
        cutoff: number | undefined,
        maxBytes: number | undefined,
        limit: number,
      ) => {
        let held: number | undefined;
        if (maxBytes !== undefined) {
          const known = this.statements.partitionBytes.get(topicId, partition)?.bytes;
          held = known ?? this.statements.countBytes.get(topicId, partition, topicId, partition)?.bytes ?? 0;
          if (known === null) this.statements.setPartitionBytes.run(held, topicId, partition);
        }
        let freed = 0;
        let deleted = 0;
        const due = (timestamp: number): boolean =>
          (cutoff !== undefined && timestamp < cutoff) ||
          (held !== undefined && maxBytes !== undefined && held - freed > maxBytes);
        const done = (more: boolean): TrimStep => {
          if (deleted === 0) return { deleted: 0, bytes: 0, more: false };
          if (held !== undefined) this.statements.setPartitionBytes.run(held - freed, topicId, partition);
          else this.statements.decrementPartitionBytes.run(freed, topicId, partition);
          return { deleted, bytes: freed, more };
        };
        // Records of the layout before batches come first: they precede every batch.
        const legacy = this.statements.legacyHead.all(topicId, partition, limit);
        let upTo: number | undefined;
        for (const row of legacy) {
          if (!due(row.timestamp)) break;
          upTo = row.offset + 1;
          freed += row.bytes;
          deleted++;
        }
        if (upTo !== undefined) this.statements.legacyDeleteHead.run(topicId, partition, upTo);
        if (deleted < legacy.length) return done(false);
        if (deleted === limit) return done(true);
        // A batch goes whole, once its newest record is past the time bound (as Kafka's segment goes
        // once its largest timestamp is), or while the partition holds more than the size bound.
        const room = limit - deleted;
        const head = this.statements.batchHead.all(topicId, partition, room);
        let taken = 0;
        upTo = undefined;
        for (const row of head) {
          if (deleted >= limit || !due(row.max_timestamp)) break;
          upTo = row.last_offset + 1;
          freed += row.bytes;
          deleted += row.count;
          taken++;
        }
        if (upTo !== undefined) this.statements.batchDeleteHead.run(topicId, partition, upTo);
        const stoppedAtLimit = taken < head.length && deleted >= limit;
        return done(stoppedAtLimit || (taken === head.length && head.length === room));
      },
    );
    const commits = this.db.transaction(() => this.writeDeferred());
    this.commitsTransaction = () => {
      commits.immediate();
      this.deferred.clear();
    };
  }

  private writeDeferred(): void {
    for (const c of this.deferred.values())
      this.statements.commit.run(c.groupId, c.topicId, c.partition, c.nextOffset);
  }

  /** Reads a topic's row; undefined when it does not exist. */
  topic(name: string): TopicRow | undefined {
    const row = this.statements.topicByName.get(name);
    return row && toTopicRow(row);
  }

  /** Creates the topic unless it exists (another process may win the race), then returns the stored row. */
  createTopic(name: string, partitions: number, retentionMs: number, retentionBytes: number): TopicRow {
    this.statements.insertTopic.run(name, partitions, retentionMs, retentionBytes);
    const row = this.topic(name);
    if (!row) throw new Error(`topic ${name} vanished after creation`);
    return row;
  }

  /** Replaces a topic's retention; returns the updated row. */
  setTopicRetention(topic: TopicRow, retentionMs: number, retentionBytes: number): TopicRow {
    if (topic.retentionMs === retentionMs && topic.retentionBytes === retentionBytes) return topic;
    this.statements.setTopicRetention.run(retentionMs, retentionBytes, topic.id);
    return { ...topic, retentionMs, retentionBytes };
  }

  /** The topics that have a time or size bound. */
  topicsWithRetention(): TopicRow[] {
    return this.statements.topicsWithRetention.all().map(toTopicRow);
  }

  /**
   * Deletes batches from the head of a partition, oldest first and whole, while their newest record is
   * older than `cutoff` (a timestamp; undefined: no time bound) or the partition holds more than
   * `maxBytes` (undefined: no size bound); about `limit` records (a batch is not split: one larger than
   * that goes alone), in one short transaction. Only a prefix goes, never a batch behind a younger one
   * (Kafka's time retention likewise stops at the first segment that is not due), so the log start only
   * moves forward and offsets stay contiguous from it. The rows of a file from before batches go first,
   * a record at a time, as they did.
   */
  trimHead(
    topicId: number,
    partition: number,
    cutoff: number | undefined,
    maxBytes: number | undefined,
    limit: number,
  ): TrimStep {
    return this.trimTransaction.immediate(topicId, partition, cutoff, maxBytes, limit);
  }

  /**
   * Rebuilds the file once (VACUUM) when it was created before incremental vacuum, so that freed pages
   * can be returned later; undefined when there was nothing to do. Blocks while it runs, and needs free
   * disk for a copy of the file.
   */
  ensureIncrementalVacuum(): VacuumConversion | undefined {
    const mode = this.db.pragma('auto_vacuum', { simple: true });
    if (mode === 2) return undefined;
    const bytesBefore = this.fileBytes();
    this.flushDeferredCommits();
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
    return { bytesBefore, bytesAfter: this.fileBytes() };
  }

  /**
   * Returns free pages to the file system, up to `maxPages`, once they are more than an eighth of the
   * file (a smaller slack is reused by the next appends, which would only grow the file again).
   * Returns how many pages were released. The file shrinks at the next checkpoint.
   */
  releaseFreePages(maxPages: number): number {
    const free = Number(this.db.pragma('freelist_count', { simple: true }));
    const total = Number(this.db.pragma('page_count', { simple: true }));
    if (free < 256 || free * 8 < total) return 0;
    const pages = Math.min(free, maxPages);
    this.db.pragma(`incremental_vacuum(${pages})`);
    return free - Number(this.db.pragma('freelist_count', { simple: true }));
  }

  /** The database file's size in bytes (pages times page size; the WAL not included). */
  fileBytes(): number {
    const pages = Number(this.db.pragma('page_count', { simple: true }));
    const size = Number(this.db.pragma('page_size', { simple: true }));
    return pages * size;
  }

  /**
   * Appends records, and writes the deferred commits, in one transaction; returns the records' offsets
   * in input order. Each partition's records become one batch (more when they are large), compressed
   * before the write lock is taken.
   */
  append(placed: readonly PlacedRecord[]): number[] {
    return this.appendTransaction(batchByPartition(placed, this.codec), placed.length);
  }

  get hasDeferredCommits(): boolean {
    return this.deferred.size > 0;
  }

  /** Writes the deferred commits now (in one transaction); a no-op when there are none. */
  flushDeferredCommits(): void {
    if (this.deferred.size > 0) this.commitsTransaction();
  }

  /**
   * Up to `limit` records from `fromOffset` on (or from the log start, when retention deleted that
   * offset): the uncompressed rows of an older file first, then the batches, the first one read from
   * inside when `fromOffset` falls in it.
   */
  fetch(topicId: number, partition: number, fromOffset: number, limit: number): StoredRecord[] {
    const records: StoredRecord[] = this.statements.legacyFetch
      .all(topicId, partition, fromOffset, limit)
      .map((row) => ({
        offset: row.offset,
        key: row.key,
        value: row.value,
        headers: row.headers === null ? {} : (JSON.parse(row.headers) as StoredRecord['headers']),
        timestamp: row.timestamp,
      }));
    if (records.length >= limit) return records;
    const from = records.length === 0 ? fromOffset : (records[records.length - 1]?.offset ?? fromOffset) + 1;
    // Iterated, not read whole: a batch's payload is read only when its records are wanted.
    for (const row of this.statements.batchFetch.iterate(topicId, partition, from, limit - records.length)) {
      records.push(
        ...decodeBatch(row.base_offset, row.count, row.codec, row.payload, from, limit - records.length),
      );
      if (records.length >= limit) break;
    }
    return records;
  }

  /** The first offset whose record timestamp is at or after `timestamp`, else the partition's end. */
  offsetForTime(topicId: number, partition: number, timestamp: number): number {
    const legacy = this.statements.legacyAtTime.get(topicId, partition, timestamp)?.offset;
    if (legacy !== null && legacy !== undefined) return legacy;
    const row = this.statements.batchAtTime.get(topicId, partition, timestamp);
    if (row === undefined) return this.endOffset(topicId, partition);
    const records = decodeBatch(row.base_offset, row.count, row.codec, row.payload, 0, row.count);
    return records.find((r) => r.timestamp >= timestamp)?.offset ?? row.base_offset + row.count;
  }

  /** The offset the next record of the partition will get. */
  endOffset(topicId: number, partition: number): number {
    return this.statements.partitionEnd.get(topicId, partition)?.next_offset ?? 0;
  }

  /** The first offset still stored (the end when the partition is empty or fully expired). */
  earliestOffset(topicId: number, partition: number): number {
    return (
      this.statements.legacyEarliest.get(topicId, partition)?.offset ??
      this.statements.batchEarliest.get(topicId, partition)?.offset ??
      this.endOffset(topicId, partition)
    );
  }

  committed(groupId: string, topicId: number, partition: number): number | undefined {
    const deferred = this.deferred.get(commitKey(groupId, topicId, partition));
    if (deferred) return deferred.nextOffset;
    return this.statements.committed.get(groupId, topicId, partition)?.next_offset;
  }

  committedAll(groupId: string, topicId: number): Map<number, number> {
    const all = new Map(
      this.statements.committedAll.all(groupId, topicId).map((r) => [r.partition, r.next_offset]),
    );
    for (const c of this.deferred.values())
      if (c.groupId === groupId && c.topicId === topicId) all.set(c.partition, c.nextOffset);
    return all;
  }

  /** Stores the group's position now, durably (replacing a deferred one). */
  commit(groupId: string, topicId: number, partition: number, nextOffset: number): void {
    this.statements.commit.run(groupId, topicId, partition, nextOffset);
    this.deferred.delete(commitKey(groupId, topicId, partition));
  }

  /**
   * Sets the group's position for this connection's readers at once and writes it with the next
   * transaction of this connection (an append, or flushDeferredCommits), so a consumer that produces
   * pays one commit for its records and its position. Until then a crash redelivers from the previous
   * position, which at-least-once consumers already allow for.
   */
  deferCommit(groupId: string, topicId: number, partition: number, nextOffset: number): void {
    this.deferred.set(commitKey(groupId, topicId, partition), { groupId, topicId, partition, nextOffset });
  }

  /** Stores a starting offset for a group that has none; keeps an existing one. */
  initCommitted(groupId: string, topicId: number, partition: number, nextOffset: number): void {
    this.statements.initCommitted.run(groupId, topicId, partition, nextOffset);
  }

  /** A trivial read: throws when the file can no longer be read (or the connection is closed). */
  ping(): void {
    this.statements.ping.get();
  }

  /** Forgets every position of a group (an ephemeral group's, when it starts and when it stops). */
  deleteGroup(groupId: string): void {
    for (const [key, c] of this.deferred) if (c.groupId === groupId) this.deferred.delete(key);
    this.statements.deleteGroup.run(groupId);
  }

  close(): void {
    this.flushDeferredCommits();
    this.db.close();
  }
}

function commitKey(groupId: string, topicId: number, partition: number): string {
  return `${groupId}\u0000${topicId}\u0000${partition}`;
}

function checkpointPages(pages: number): number {
  if (!Number.isInteger(pages) || pages < 0)
    throw new RangeError(`autoCheckpointPages must be a non-negative integer, got ${pages}`);
  return pages;
}
