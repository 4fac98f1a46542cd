import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventLogLogger } from '../event-log-logger.js';
import { partitionForKey } from '../partitioner.js';
import type { LogRecord, ProduceRecord } from '../port.js';
import {
  openEmbeddedEventLog,
  type EmbeddedEventLog,
  type EmbeddedEventLogOptions,
} from './embedded-event-log.js';
import { BATCH_OVERHEAD_BYTES, RECORD_OVERHEAD_BYTES } from './log-schema.js';
import { RECORD_FRAMING_BYTES } from './record-batch.js';

// Retention of the embedded log: time and size bounds, in small steps, Kafka's semantics for groups that
// fell behind, and the file giving its space back. Each produce call awaited alone is one append, so one
// batch per partition: retention deletes whole batches (see embedded-event-log-batches.int.test.ts).

let directory: string;
const opened: EmbeddedEventLog[] = [];
const open = async (options: Partial<EmbeddedEventLogOptions> = {}) => {
  const log = await openEmbeddedEventLog({ directory, retentionCheckIntervalMs: 3_600_000, ...options });
  opened.push(log);
  return log;
};
const closeAll = async () => {
  await Promise.all(opened.splice(0).map((log) => log.close()));
};
const rec = (key: string, value: string | Buffer, timestamp?: number): ProduceRecord => ({
  key,
  value: typeof value === 'string' ? Buffer.from(value) : value,
  ...(timestamp === undefined ? {} : { timestamp }),
});
const HOUR = 60 * 60 * 1000;

function recordingLogger(): { logger: EventLogLogger; warnings: Record<string, unknown>[] } {
  const warnings: Record<string, unknown>[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    logger: {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (context, msg) => warnings.push({ ...context, msg }),
    },
  };
}

function storedOffsets(file: string, topic: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    const batches = db
      .prepare(
        `SELECT b.base_offset, b.last_offset FROM record_batches b JOIN topics t ON t.id = b.topic_id
         WHERE t.name = ? ORDER BY b.last_offset`,
      )
      .all(topic) as { base_offset: number; last_offset: number }[];
    return batches.flatMap((b) =>
      Array.from({ length: b.last_offset - b.base_offset + 1 }, (_, i) => b.base_offset + i),
    );
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'eventlog-retention-'));
});
afterEach(async () => {
  await closeAll();
  await rm(directory, { recursive: true, force: true });
});

describe('embedded event log retention', () => {
  it('deletes only the expired prefix, in steps of retentionChunkRows, and keeps offsets growing', async () => {
    const log = await open({ retentionChunkRows: 7 });
    await log.ensureTopics([{ name: 'timed', retentionMs: HOUR }]);
    const now = Date.now();
    for (let i = 0; i < 40; i++) await log.produce('timed', [rec('k', `old${i}`, now - 2 * HOUR)]);
    // A fresh record, then an old one behind it: the old one stays until the fresh one expires (prefix).
    await log.produce('timed', [rec('k', 'fresh', now)]);
    await log.produce('timed', [rec('k', 'late-old', now - 2 * HOUR)]);
    expect(await log.runRetention(now)).toBe(40);
    await closeAll();
    expect(storedOffsets(join(directory, 'eventlog.sqlite'), 'timed')).toEqual([40, 41]);

    const again = await open();
    const [next] = await again.produce('timed', [rec('k', 'next')]);
    expect(next?.offset).toBe('42');
    expect(await again.runRetention(now + 2 * HOUR)).toBe(3);
  });

  it('keeps each partition under its retentionBytes, dropping the oldest records first', async () => {
    // Random bytes do not compress, so each one-record batch is stored plain, at a known size.
    const value = randomBytes(1000);
    const perRecord = RECORD_FRAMING_BYTES + 1 + value.length + BATCH_OVERHEAD_BYTES;
    const log = await open();
    await log.ensureTopics([
      { name: 'sized', partitions: 2, retentionMs: -1, retentionBytes: 10 * perRecord },
    ]);
    const big = 'a';
    const small = ['b', 'c', 'd', 'e'].find((key) => partitionForKey(key, 2) !== partitionForKey(big, 2))!;
    for (let i = 0; i < 25; i++) await log.produce('sized', [rec(big, value)]);
    for (let i = 0; i < 4; i++) await log.produce('sized', [rec(small, value)]);
    expect(await log.runRetention()).toBe(15);
    const seen: LogRecord[] = [];
    await log.consume({
      groupId: 'g',
      topics: ['sized'],
      fromBeginning: true,
      handler: async (batch) => void seen.push(...batch.records),
    });
    await waitFor(() => seen.length === 14);
    const ofBig = seen.filter((r) => r.key === big).map((r) => r.offset);
    expect(ofBig).toEqual(Array.from({ length: 10 }, (_, i) => String(15 + i)));
    expect(seen.filter((r) => r.key === small)).toHaveLength(4);
  });

  it('moves a group whose committed offset fell below the log start on to the log start', async () => {
    const { logger, warnings } = recordingLogger();
    const log = await open({ logger });
    await log.ensureTopics([{ name: 'behind', retentionMs: HOUR }]);
    const now = Date.now();
    const seen: LogRecord[] = [];
    const handler = async (batch: { records: readonly LogRecord[] }) => void seen.push(...batch.records);
    const first = await log.consume({ groupId: 'slow', topics: ['behind'], fromBeginning: true, handler });
    await log.produce('behind', [rec('k', 'read', now - 3 * HOUR)]);
    await waitFor(() => seen.length === 1);
    await first.stop();

    // While the group is away: five records it never reads expire, two stay.
    await log.produce(
      'behind',
      Array.from({ length: 5 }, (_, i) => rec('k', `missed${i}`, now - 2 * HOUR)),
    );
    await log.produce('behind', [rec('k', 'kept1', now), rec('k', 'kept2', now)]);
    expect(await log.runRetention(now)).toBe(6);
    expect(await log.lag('slow', 'behind')).toEqual([{ partition: 0, offset: '1', endOffset: '8', lag: 2 }]);

    await log.consume({ groupId: 'slow', topics: ['behind'], fromBeginning: true, handler });
    await waitFor(() => seen.length === 3);
    expect(seen.slice(1).map((r) => [r.offset, r.value.toString()])).toEqual([
      ['6', 'kept1'],
      ['7', 'kept2'],
    ]);
    await waitFor(async () => (await log.lag('slow', 'behind'))[0]?.lag === 0);
    expect(await log.lag('slow', 'behind')).toEqual([{ partition: 0, offset: '8', endOffset: '8', lag: 0 }]);
    expect(warnings).toEqual([
      expect.objectContaining({ groupId: 'slow', topic: 'behind', committed: 1, logStart: 6, skipped: 5 }),
    ]);
  });

  it('gives topics without a retention the default, and lets configuration override a spec and an existing topic', async () => {
    const now = Date.now();
    const first = await open({ defaultRetentionMs: HOUR });
    await first.ensureTopics([{ name: 'coded', retentionMs: -1 }]);
    await first.produce('auto', [rec('k', 'old', now - 2 * HOUR)]);
    await first.produce('coded', [rec('k', 'old', now - 2 * HOUR)]);
    expect(await first.runRetention(now)).toBe(1);
    await closeAll();

    const second = await open({ topicRetention: { coded: { retentionMs: HOUR } } });
    await second.ensureTopics([{ name: 'coded', retentionMs: -1 }]);
    expect(await second.runRetention(now)).toBe(1);
    expect(await second.lag('g', 'coded')).toEqual([{ partition: 0, offset: '-1', endOffset: '1', lag: 0 }]);
  });

  it('deletes in steps that let producers through before the pass ends', async () => {
    const log = await open({ retentionChunkRows: 100 });
    await log.ensureTopics([{ name: 'busy', retentionMs: HOUR }]);
    const old = Date.now() - 2 * HOUR;
    for (let i = 0; i < 10; i++) {
      await log.produce(
        'busy',
        Array.from({ length: 1000 }, (_, j) => rec(`k${j}`, `v${i}.${j}`, old)),
      );
    }
    let passDone = false;
    const pass = log.runRetention().then((deleted) => {
      passDone = true;
      return deleted;
    });
    const [probe] = await log.produce('busy', [rec('probe', 'p')]);
    expect(probe?.offset).toBe('10000');
    expect(passDone).toBe(false);
    expect(await pass).toBe(10_000);
  });

  it('runs retention in the background every retentionCheckIntervalMs', async () => {
    const log = await open({ retentionCheckIntervalMs: 20 });
    await log.ensureTopics([{ name: 'background', retentionMs: HOUR }]);
    await log.produce('background', [rec('k', 'old', Date.now() - 2 * HOUR)]);
    await log.produce('background', [rec('k', 'fresh')]);
    await waitFor(
      async () => (await log.lag('g', 'background'))[0]?.lag === 1,
      10_000,
      'background retention',
    );
  });

  it('returns the space of deleted records to the file system', async () => {
    const file = join(directory, 'eventlog.sqlite');
    const log = await open();
    await log.ensureTopics([{ name: 'bulk', retentionMs: HOUR }]);
    const old = Date.now() - 2 * HOUR;
    for (let i = 0; i < 20; i++) {
      // Random bytes, which do not compress: the file must reach its size.
      await log.produce(
        'bulk',
        Array.from({ length: 250 }, () => rec('k', randomBytes(4000), old)),
      );
    }
    await log.produce('bulk', [rec('k', 'fresh')]);
    const full = log.fileBytes();
    expect(full).toBeGreaterThan(20_000_000);
    expect(await log.runRetention()).toBe(5000);
    expect(log.fileBytes()).toBeLessThan(full / 4);
    await closeAll();
    // Closing checkpoints the WAL into the file, which is then truncated to its pages.
    expect((await stat(file)).size).toBeLessThan(full / 4);
  });

  it('converts a file created without incremental vacuum once, and keeps its records and positions', async () => {
    const file = join(directory, 'eventlog.sqlite');
    const legacy = new Database(file);
    // The layout as releases before retention bounds wrote it: no byte counts, no auto_vacuum.
    legacy.exec(`
      CREATE TABLE topics (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, partitions INTEGER NOT NULL,
        retention_ms INTEGER NOT NULL DEFAULT -1);
      CREATE TABLE partition_ends (topic_id INTEGER NOT NULL, partition INTEGER NOT NULL,
        next_offset INTEGER NOT NULL, PRIMARY KEY (topic_id, partition)) WITHOUT ROWID;
      CREATE TABLE records (topic_id INTEGER NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
        key TEXT NOT NULL, value BLOB NOT NULL, headers TEXT, timestamp INTEGER NOT NULL,
        PRIMARY KEY (topic_id, partition, offset)) WITHOUT ROWID;
      CREATE TABLE group_offsets (group_id TEXT NOT NULL, topic_id INTEGER NOT NULL, partition INTEGER NOT NULL,
        next_offset INTEGER NOT NULL, PRIMARY KEY (group_id, topic_id, partition)) WITHOUT ROWID;
      INSERT INTO topics (id, name, partitions, retention_ms) VALUES (1, 'legacy', 1, -1);
      INSERT INTO partition_ends VALUES (1, 0, 30);
      INSERT INTO group_offsets VALUES ('g', 1, 0, 12);
    `);
    const insert = legacy.prepare('INSERT INTO records VALUES (1, 0, ?, ?, ?, NULL, ?)');
    const now = Date.now();
    for (let offset = 0; offset < 30; offset++) insert.run(offset, 'k', Buffer.alloc(100, 1), now);
    expect(legacy.pragma('auto_vacuum', { simple: true })).toBe(0);
    legacy.close();

    const perRecord = 1 + 100 + RECORD_OVERHEAD_BYTES;
    const log = await open({ topicRetention: { legacy: { retentionBytes: 20 * perRecord } } });
    const check = new Database(file, { readonly: true });
    expect(check.pragma('auto_vacuum', { simple: true })).toBe(2);
    check.close();
    // The size bound works from a recount of what the older release stored.
    expect(await log.runRetention()).toBe(10);
    expect(await log.lag('g', 'legacy')).toEqual([{ partition: 0, offset: '12', endOffset: '30', lag: 18 }]);
    const [next] = await log.produce('legacy', [rec('k', Buffer.alloc(100, 2))]);
    expect(next?.offset).toBe('30');
    expect(await log.runRetention()).toBe(1);
  });
});
