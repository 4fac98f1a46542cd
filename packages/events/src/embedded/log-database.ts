import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ProduceRecord, RecordHeaders } from '../port.js';

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
}

export interface StoredRecord {
  readonly offset: number;
  readonly key: string;
  readonly value: Buffer;
  readonly headers: RecordHeaders;
  readonly timestamp: number;
}

/** A record placed on its partition, ready to append. */
export interface PlacedRecord {
  readonly topicId: number;
  readonly partition: number;
  readonly record: ProduceRecord;
  readonly timestamp: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS topics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  partitions INTEGER NOT NULL,
  retention_ms INTEGER NOT NULL DEFAULT -1
);
-- The next offset per partition: kept apart from the records because retention deletes records,
-- and offsets must never be reused.
CREATE TABLE IF NOT EXISTS partition_ends (
  topic_id INTEGER NOT NULL,
  partition INTEGER NOT NULL,
  next_offset INTEGER NOT NULL,
  PRIMARY KEY (topic_id, partition)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
  topic_id INTEGER NOT NULL,
  partition INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  key TEXT NOT NULL,
  value BLOB NOT NULL,
  headers TEXT,
  timestamp INTEGER NOT NULL,
  PRIMARY KEY (topic_id, partition, offset)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS group_offsets (
  group_id TEXT NOT NULL,
  topic_id INTEGER NOT NULL,
  partition INTEGER NOT NULL,
  next_offset INTEGER NOT NULL,
  PRIMARY KEY (group_id, topic_id, partition)
) WITHOUT ROWID;
`;

interface RecordRow {
  offset: number;
  key: string;
  value: Buffer;
  headers: string | null;
  timestamp: number;
}

function prepareStatements(db: Database.Database) {
  return {
    topicByName: db.prepare<[string], { id: number; name: string; partitions: number; retention_ms: number }>(
      'SELECT id, name, partitions, retention_ms FROM topics WHERE name = ?',
    ),
    insertTopic: db.prepare<[string, number, number]>(
      'INSERT INTO topics (name, partitions, retention_ms) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    ),
    topicsWithRetention: db.prepare<[], { id: number; retention_ms: number }>(
      'SELECT id, retention_ms FROM topics WHERE retention_ms >= 0',
    ),
    partitionEnd: db.prepare<[number, number], { next_offset: number }>(
      'SELECT next_offset FROM partition_ends WHERE topic_id = ? AND partition = ?',
    ),
    setPartitionEnd: db.prepare<[number, number, number]>(
      `INSERT INTO partition_ends (topic_id, partition, next_offset) VALUES (?, ?, ?)
       ON CONFLICT (topic_id, partition) DO UPDATE SET next_offset = excluded.next_offset`,
    ),
    insertRecord: db.prepare<[number, number, number, string, Buffer, string | null, number]>(
      'INSERT INTO records (topic_id, partition, offset, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    fetch: db.prepare<[number, number, number, number], RecordRow>(
      `SELECT offset, key, value, headers, timestamp FROM records
       WHERE topic_id = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?`,
    ),
    earliest: db.prepare<[number, number], { offset: number }>(
      'SELECT offset FROM records WHERE topic_id = ? AND partition = ? ORDER BY offset LIMIT 1',
    ),
    committed: db.prepare<[string, number, number], { next_offset: number }>(
      'SELECT next_offset FROM group_offsets WHERE group_id = ? AND topic_id = ? AND partition = ?',
    ),
    committedAll: db.prepare<[string, number], { partition: number; next_offset: number }>(
      'SELECT partition, next_offset FROM group_offsets WHERE group_id = ? AND topic_id = ? ORDER BY partition',
    ),
    commit: db.prepare<[string, number, number, number]>(
      `INSERT INTO group_offsets (group_id, topic_id, partition, next_offset) VALUES (?, ?, ?, ?)
       ON CONFLICT (group_id, topic_id, partition) DO UPDATE SET next_offset = excluded.next_offset`,
    ),
    initCommitted: db.prepare<[string, number, number, number]>(
      `INSERT INTO group_offsets (group_id, topic_id, partition, next_offset) VALUES (?, ?, ?, ?)
       ON CONFLICT (group_id, topic_id, partition) DO NOTHING`,
    ),
    deleteOlder: db.prepare<[number, number]>('DELETE FROM records WHERE topic_id = ? AND timestamp < ?'),
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
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly appendTransaction: (placed: readonly PlacedRecord[]) => number[];
  private readonly commitsTransaction: () => void;
  /** Deferred commits by group/topic/partition; reads of this connection see them at once. */
  private readonly deferred = new Map<string, DeferredCommit>();

  constructor(directory: string, durability: Durability, busyTimeoutMs: number, autoCheckpointPages: number) {
    mkdirSync(directory, { recursive: true });
    this.db = new Database(join(directory, 'eventlog.sqlite'), { timeout: busyTimeoutMs });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(durability === 'power-loss' ? 'synchronous = FULL' : 'synchronous = NORMAL');
    // Checkpoints (two fsyncs each) run inside whichever commit crosses the threshold and stall that
    // thread's event loop; the catalog raises the threshold and checkpoints from a background thread.
    // The size limit truncates the WAL after.
    this.db.pragma(`wal_autocheckpoint = ${checkpointPages(autoCheckpointPages)}`);
    this.db.pragma('journal_size_limit = 67108864');
    this.db.exec(SCHEMA);
    this.statements = prepareStatements(this.db);
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads the partition end and then
    // upgrades to write could fail with SQLITE_BUSY against another process instead of waiting.
    const append = this.db.transaction((placed: readonly PlacedRecord[]): number[] => {
      const ends = new Map<string, { topicId: number; partition: number; next: number }>();
      const offsets: number[] = [];
      for (const { topicId, partition, record, timestamp } of placed) {
        const slot = `${topicId}:${partition}`;
        let end = ends.get(slot);
        if (!end) {
          const next = this.statements.partitionEnd.get(topicId, partition)?.next_offset ?? 0;
          end = { topicId, partition, next };
          ends.set(slot, end);
        }
        const offset = end.next++;
        const headers =
          record.headers && Object.keys(record.headers).length > 0 ? JSON.stringify(record.headers) : null;
        this.statements.insertRecord.run(
          topicId,
          partition,
          offset,
          record.key,
          record.value,
          headers,
          timestamp,
        );
        offsets.push(offset);
      }
      for (const end of ends.values())
        this.statements.setPartitionEnd.run(end.topicId, end.partition, end.next);
      this.writeDeferred();
      return offsets;
    });
    this.appendTransaction = (placed) => {
      const offsets = append.immediate(placed);
      this.deferred.clear();
      return offsets;
    };
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
    return row && { id: row.id, name: row.name, partitions: row.partitions, retentionMs: row.retention_ms };
  }

  /** Creates the topic unless it exists (another process may win the race), then returns the stored row. */
  createTopic(name: string, partitions: number, retentionMs: number): TopicRow {
    this.statements.insertTopic.run(name, partitions, retentionMs);
    const row = this.topic(name);
    if (!row) throw new Error(`topic ${name} vanished after creation`);
    return row;
  }

  /** Appends records, and writes the deferred commits, in one transaction; returns the records' offsets in input order. */
  append(placed: readonly PlacedRecord[]): number[] {
    return this.appendTransaction(placed);
  }

  get hasDeferredCommits(): boolean {
    return this.deferred.size > 0;
  }

  /** Writes the deferred commits now (in one transaction); a no-op when there are none. */
  flushDeferredCommits(): void {
    if (this.deferred.size > 0) this.commitsTransaction();
  }

  fetch(topicId: number, partition: number, fromOffset: number, limit: number): StoredRecord[] {
    return this.statements.fetch.all(topicId, partition, fromOffset, limit).map((row) => ({
      offset: row.offset,
      key: row.key,
      value: row.value,
      headers: row.headers === null ? {} : (JSON.parse(row.headers) as RecordHeaders),
      timestamp: row.timestamp,
    }));
  }

  /** The offset the next record of the partition will get. */
  endOffset(topicId: number, partition: number): number {
    return this.statements.partitionEnd.get(topicId, partition)?.next_offset ?? 0;
  }

  /** The first offset still stored (the end when the partition is empty or fully expired). */
  earliestOffset(topicId: number, partition: number): number {
    return this.statements.earliest.get(topicId, partition)?.offset ?? this.endOffset(topicId, partition);
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

  /** Deletes records older than each topic's retention; returns how many went. */
  deleteExpired(now: number): number {
    let deleted = 0;
    for (const topic of this.statements.topicsWithRetention.all()) {
      deleted += this.statements.deleteOlder.run(topic.id, now - topic.retention_ms).changes;
    }
    return deleted;
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
