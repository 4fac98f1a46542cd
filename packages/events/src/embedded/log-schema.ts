import type Database from 'better-sqlite3';

// The log file's layout: its tables, and the statements LogDatabase runs on them.

/**
 * The bytes a batch counts for against its topic's `retentionBytes`, as Kafka counts a segment's: what
 * it stores, its payload compressed, plus a fixed share for its row. The same sum in SQL and in JS, so
 * the running total kept per partition matches what a recount finds.
 */
export const BATCH_OVERHEAD_BYTES = 32;
const BATCH_BYTES_SQL = `(length(payload) + ${BATCH_OVERHEAD_BYTES})`;

/** The same for a record of the layout before batches (see the records table): key, value and headers. */
export const RECORD_OVERHEAD_BYTES = 32;
const RECORD_BYTES_SQL = `(length(CAST(key AS BLOB)) + length(value) + coalesce(length(CAST(headers AS BLOB)), 0) + ${RECORD_OVERHEAD_BYTES})`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS topics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  partitions INTEGER NOT NULL,
  retention_ms INTEGER NOT NULL DEFAULT -1,
  retention_bytes INTEGER NOT NULL DEFAULT -1
);
-- The next offset per partition: kept apart from the records because retention deletes records,
-- and offsets must never be reused. bytes: what the partition's records count for against
-- retention_bytes, kept current by appends and retention; NULL (a file from before it) = recount.
CREATE TABLE IF NOT EXISTS partition_ends (
  topic_id INTEGER NOT NULL,
  partition INTEGER NOT NULL,
  next_offset INTEGER NOT NULL,
  bytes INTEGER,
  PRIMARY KEY (topic_id, partition)
) WITHOUT ROWID;
-- The records, a batch per row (see record-batch.ts): the records one append put on a partition, from
-- base_offset to last_offset, their keys, values, headers and timestamps in one payload, compressed
-- with codec. Keyed by last_offset, so a fetch from inside a batch finds it with one seek.
CREATE TABLE IF NOT EXISTS record_batches (
  topic_id INTEGER NOT NULL,
  partition INTEGER NOT NULL,
  last_offset INTEGER NOT NULL,
  base_offset INTEGER NOT NULL,
  count INTEGER NOT NULL,
  max_timestamp INTEGER NOT NULL,
  codec INTEGER NOT NULL,
  payload BLOB NOT NULL,
  PRIMARY KEY (topic_id, partition, last_offset)
);
-- The layout before batches, a record per row, uncompressed. Nothing is appended to it any more; a
-- file written before batches keeps its rows here, read before the partition's batches (their offsets
-- all precede them) and deleted by retention as they always were. They are not moved into batches
-- when the file opens: that would rewrite the whole log in one write transaction while the catalog's
-- other threads open the same file (they give up after busy_timeout, 5 s), and what is rewritten is
-- what retention deletes within its period anyway.
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

export interface TopicTableRow {
  id: number;
  name: string;
  partitions: number;
  retention_ms: number;
  retention_bytes: number;
}

interface LegacyRecordRow {
  offset: number;
  key: string;
  value: Buffer;
  headers: string | null;
  timestamp: number;
}

interface BatchRow {
  base_offset: number;
  count: number;
  codec: number;
  payload: Buffer;
}

interface BatchHeadRow {
  last_offset: number;
  count: number;
  max_timestamp: number;
  bytes: number;
}

/** The statements LogDatabase runs, prepared once per connection. */
export interface LogStatements {
  readonly topicByName: Database.Statement<[string], TopicTableRow>;
  readonly insertTopic: Database.Statement<[string, number, number, number]>;
  readonly setTopicRetention: Database.Statement<[number, number, number]>;
  readonly topicsWithRetention: Database.Statement<[], TopicTableRow>;
  readonly legacyHead: Database.Statement<
    [number, number, number],
    { offset: number; timestamp: number; bytes: number }
  >;
  readonly batchHead: Database.Statement<[number, number, number], BatchHeadRow>;
  readonly partitionBytes: Database.Statement<[number, number], { bytes: number | null }>;
  readonly countBytes: Database.Statement<[number, number, number, number], { bytes: number }>;
  readonly setPartitionBytes: Database.Statement<[number, number, number]>;
  readonly decrementPartitionBytes: Database.Statement<[number, number, number]>;
  readonly legacyDeleteHead: Database.Statement<[number, number, number]>;
  readonly batchDeleteHead: Database.Statement<[number, number, number]>;
  readonly partitionEnd: Database.Statement<[number, number], { next_offset: number }>;
  readonly setPartitionEnd: Database.Statement<[number, number, number, number]>;
  readonly insertBatch: Database.Statement<[number, number, number, number, number, number, number, Buffer]>;
  readonly legacyFetch: Database.Statement<[number, number, number, number], LegacyRecordRow>;
  readonly batchFetch: Database.Statement<[number, number, number, number], BatchRow>;
  readonly legacyAtTime: Database.Statement<[number, number, number], { offset: number | null }>;
  readonly batchAtTime: Database.Statement<[number, number, number], BatchRow>;
  readonly legacyEarliest: Database.Statement<[number, number], { offset: number }>;
  readonly batchEarliest: Database.Statement<[number, number], { offset: number }>;
  readonly committed: Database.Statement<[string, number, number], { next_offset: number }>;
  readonly committedAll: Database.Statement<[string, number], { partition: number; next_offset: number }>;
  readonly commit: Database.Statement<[string, number, number, number]>;
  readonly initCommitted: Database.Statement<[string, number, number, number]>;
  readonly deleteGroup: Database.Statement<[string]>;
  readonly ping: Database.Statement;
}

export function prepareStatements(db: Database.Database): LogStatements {
  return {
    topicByName: db.prepare<[string], TopicTableRow>(
      'SELECT id, name, partitions, retention_ms, retention_bytes FROM topics WHERE name = ?',
    ),
    insertTopic: db.prepare<[string, number, number, number]>(
      `INSERT INTO topics (name, partitions, retention_ms, retention_bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO NOTHING`,
    ),
    setTopicRetention: db.prepare<[number, number, number]>(
      'UPDATE topics SET retention_ms = ?, retention_bytes = ? WHERE id = ?',
    ),
    topicsWithRetention: db.prepare<[], TopicTableRow>(
      `SELECT id, name, partitions, retention_ms, retention_bytes FROM topics
       WHERE retention_ms >= 0 OR retention_bytes >= 0 ORDER BY id`,
    ),
    legacyHead: db.prepare<[number, number, number], { offset: number; timestamp: number; bytes: number }>(
      `SELECT offset, timestamp, ${RECORD_BYTES_SQL} AS bytes FROM records
       WHERE topic_id = ? AND partition = ? ORDER BY offset LIMIT ?`,
    ),
    batchHead: db.prepare<[number, number, number], BatchHeadRow>(
      `SELECT last_offset, count, max_timestamp, ${BATCH_BYTES_SQL} AS bytes FROM record_batches
       WHERE topic_id = ? AND partition = ? ORDER BY last_offset LIMIT ?`,
    ),
    partitionBytes: db.prepare<[number, number], { bytes: number | null }>(
      'SELECT bytes FROM partition_ends WHERE topic_id = ? AND partition = ?',
    ),
    countBytes: db.prepare<[number, number, number, number], { bytes: number }>(
      `SELECT (SELECT coalesce(sum(${RECORD_BYTES_SQL}), 0) FROM records WHERE topic_id = ? AND partition = ?)
         + (SELECT coalesce(sum(${BATCH_BYTES_SQL}), 0) FROM record_batches WHERE topic_id = ? AND partition = ?)
         AS bytes`,
    ),
    setPartitionBytes: db.prepare<[number, number, number]>(
      'UPDATE partition_ends SET bytes = ? WHERE topic_id = ? AND partition = ?',
    ),
    decrementPartitionBytes: db.prepare<[number, number, number]>(
      'UPDATE partition_ends SET bytes = bytes - ? WHERE topic_id = ? AND partition = ?',
    ),
    legacyDeleteHead: db.prepare<[number, number, number]>(
      'DELETE FROM records WHERE topic_id = ? AND partition = ? AND offset < ?',
    ),
    batchDeleteHead: db.prepare<[number, number, number]>(
      'DELETE FROM record_batches WHERE topic_id = ? AND partition = ? AND last_offset < ?',
    ),
    partitionEnd: db.prepare<[number, number], { next_offset: number }>(
      'SELECT next_offset FROM partition_ends WHERE topic_id = ? AND partition = ?',
    ),
    // NULL bytes stay NULL (NULL + n): a file from before the column is recounted by retention.
    setPartitionEnd: db.prepare<[number, number, number, number]>(
      `INSERT INTO partition_ends (topic_id, partition, next_offset, bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (topic_id, partition) DO UPDATE SET next_offset = excluded.next_offset,
         bytes = partition_ends.bytes + excluded.bytes`,
    ),
    insertBatch: db.prepare<[number, number, number, number, number, number, number, Buffer]>(
      `INSERT INTO record_batches (topic_id, partition, last_offset, base_offset, count, max_timestamp, codec, payload)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    legacyFetch: db.prepare<[number, number, number, number], LegacyRecordRow>(
      `SELECT offset, key, value, headers, timestamp FROM records
       WHERE topic_id = ? AND partition = ? AND offset >= ? ORDER BY offset LIMIT ?`,
    ),
    batchFetch: db.prepare<[number, number, number, number], BatchRow>(
      `SELECT base_offset, count, codec, payload FROM record_batches
       WHERE topic_id = ? AND partition = ? AND last_offset >= ? ORDER BY last_offset LIMIT ?`,
    ),
    legacyAtTime: db.prepare<[number, number, number], { offset: number | null }>(
      'SELECT min(offset) AS offset FROM records WHERE topic_id = ? AND partition = ? AND timestamp >= ?',
    ),
    // max_timestamp, not the first record's: a batch may hold records produced with older timestamps.
    batchAtTime: db.prepare<[number, number, number], BatchRow>(
      `SELECT base_offset, count, codec, payload FROM record_batches
       WHERE topic_id = ? AND partition = ? AND max_timestamp >= ? ORDER BY last_offset LIMIT 1`,
    ),
    legacyEarliest: db.prepare<[number, number], { offset: number }>(
      'SELECT offset FROM records WHERE topic_id = ? AND partition = ? ORDER BY offset LIMIT 1',
    ),
    batchEarliest: db.prepare<[number, number], { offset: number }>(
      `SELECT base_offset AS offset FROM record_batches WHERE topic_id = ? AND partition = ?
       ORDER BY last_offset LIMIT 1`,
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
    deleteGroup: db.prepare<[string]>('DELETE FROM group_offsets WHERE group_id = ?'),
    ping: db.prepare('SELECT 1'),
  };
}

/** Creates the tables a file lacks, and the columns added to them since (see addMissingColumns). */
export function createLogSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  addMissingColumns(db);
}

/** Adds the columns of this layout to a file created before them (in one transaction, so racing openers agree). */
function addMissingColumns(db: Database.Database): void {
  const columns = (table: string) =>
    new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
  db.transaction(() => {
    if (!columns('topics').has('retention_bytes'))
      db.exec('ALTER TABLE topics ADD COLUMN retention_bytes INTEGER NOT NULL DEFAULT -1');
    if (!columns('partition_ends').has('bytes'))
      db.exec('ALTER TABLE partition_ends ADD COLUMN bytes INTEGER');
  }).immediate();
}
