import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { genericAspectFromJson } from '../generic-aspect.js';
import type { LogRecord, ProduceRecord, RecordBatch } from '../port.js';
import { SchemaIds } from '../schemas/event-schemas.js';
import { encodeMcl, encodeMcp } from '../serde.js';
import {
  openEmbeddedEventLog,
  type EmbeddedEventLog,
  type EmbeddedEventLogOptions,
} from './embedded-event-log.js';
import { BATCH_OVERHEAD_BYTES } from './log-schema.js';
import { Codec } from './record-batch.js';

// The embedded log stores the records one append puts on a partition as one batch, compressed, as
// Kafka's producers send and its brokers keep theirs: read from any offset inside a batch, deleted
// whole by retention, counted at their compressed size against retentionBytes.

let directory: string;
const opened: EmbeddedEventLog[] = [];
const open = async (options: Partial<EmbeddedEventLogOptions> = {}, dir = directory) => {
  const log = await openEmbeddedEventLog({
    directory: dir,
    retentionCheckIntervalMs: 3_600_000,
    pollIntervalMs: 10,
    retryInitialMs: 10,
    ...options,
  });
  opened.push(log);
  return log;
};
const HOUR = 60 * 60 * 1000;

interface BatchRow {
  base_offset: number;
  last_offset: number;
  count: number;
  codec: number;
  max_timestamp: number;
  bytes: number;
}

function storedBatches(dir: string, topic: string): BatchRow[] {
  const db = new Database(join(dir, 'eventlog.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT b.base_offset, b.last_offset, b.count, b.codec, b.max_timestamp,
           length(b.payload) + ${BATCH_OVERHEAD_BYTES} AS bytes
         FROM record_batches b JOIN topics t ON t.id = b.topic_id WHERE t.name = ? ORDER BY b.last_offset`,
      )
      .all(topic) as BatchRow[];
  } finally {
    db.close();
  }
}

const storedBytes = (dir: string, topic: string): number =>
  storedBatches(dir, topic).reduce((sum, b) => sum + b.bytes, 0);

/**
 * The records the catalog writes for an aspect: the proposal (MCP) and its change log (MCL, with the
 * previous value), Avro-framed as on the ecosystem's topics; about 1.5 to 4 KB each.
 */
function metadataRecords(entities: number, timestamp = Date.now()): ProduceRecord[] {
  const records: ProduceRecord[] = [];
  for (let i = 0; i < entities; i++) {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.schema_${i % 50}.table_${i},PROD)`;
    const schema = (revision: number) => ({
      schemaName: `table_${i}`,
      platform: 'urn:li:dataPlatform:snowflake',
      version: revision,
      hash: '',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
      fields: Array.from({ length: 6 + (i % 10) }, (_, f) => ({
        fieldPath: `column_${f}_${(i * 7 + f) % 13}`,
        nativeDataType: f % 2 ? 'VARCHAR(255)' : 'NUMBER(38,0)',
        type: { type: { [f % 2 ? 'com.linkedin.schema.StringType' : 'com.linkedin.schema.NumberType']: {} } },
        nullable: f % 3 !== 0,
        description: `Column ${f} of table ${i}, revision ${revision}`,
      })),
    });
    const systemMetadata = (run: number) => ({
      lastObserved: timestamp - run * 1000,
      runId: `snowflake-ingest-${run}`,
      properties: { requestId: `req-${i}-${run}` },
    });
    const proposal = {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT' as const,
      aspectName: 'schemaMetadata',
      aspect: genericAspectFromJson(schema(1)),
      systemMetadata: systemMetadata(1),
    };
    const changeLog = encodeMcl(
      {
        ...proposal,
        previousAspectValue: genericAspectFromJson(schema(0)),
        previousSystemMetadata: systemMetadata(0),
        created: { time: timestamp, actor: 'urn:li:corpuser:datahub' },
      },
      SchemaIds.metadataChangeLog,
    );
    records.push({ key: urn, value: encodeMcp(proposal), timestamp });
    records.push({ key: urn, value: changeLog, headers: { 'X-Request-Id': `req-${i}` }, timestamp });
  }
  return records;
}

async function collect(log: EmbeddedEventLog, groupId: string, topic: string, maxBatchSize?: number) {
  const batches: LogRecord[][] = [];
  const consumer = await log.consume({
    groupId,
    topics: [topic],
    fromBeginning: true,
    ...(maxBatchSize === undefined ? {} : { maxBatchSize }),
    handler: async (batch: RecordBatch) => void batches.push([...batch.records]),
  });
  return { batches, records: () => batches.flat(), consumer };
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'eventlog-batches-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((log) => log.close()));
  await rm(directory, { recursive: true, force: true });
});

describe('embedded event log record batches', () => {
  it('stores an append as one compressed batch per partition and reads every field back', async () => {
    const log = await open();
    await log.ensureTopics([{ name: 'mcl', partitions: 3 }]);
    const written = metadataRecords(30);
    const positions = await log.produce('mcl', written);

    // 60 records on 3 partitions, one append: a batch per partition (none past the size that splits one).
    const batches = storedBatches(directory, 'mcl');
    expect(batches).toHaveLength(3);
    for (const b of batches) {
      expect(b.codec).toBe(Codec.deflate);
      expect(b.last_offset - b.base_offset + 1).toBe(b.count);
    }

    const { records } = await collect(log, 'g', 'mcl');
    await waitFor(() => records().length === written.length);
    const byPosition = new Map(records().map((r) => [`${r.partition}:${r.offset}`, r]));
    written.forEach((record, i) => {
      const position = positions[i]!;
      const read = byPosition.get(`${position.partition}:${position.offset}`);
      expect(read?.key).toBe(record.key);
      expect(read?.value.equals(record.value)).toBe(true);
      expect(read?.headers).toEqual(record.headers ?? {});
      expect(read?.timestamp).toBe(record.timestamp);
    });
  });

  it('splits a large append into batches of at most 128 KiB and keeps offsets contiguous', async () => {
    const log = await open();
    const written = metadataRecords(200);
    const positions = await log.produce('big', written);
    expect(positions.map((p) => p.offset)).toEqual(written.map((_, i) => String(i)));
    const batches = storedBatches(directory, 'big');
    expect(batches.length).toBeGreaterThan(3);
    batches.forEach((b, i) => {
      expect(b.base_offset).toBe(i === 0 ? 0 : batches[i - 1]!.last_offset + 1);
      expect(b.last_offset - b.base_offset + 1).toBe(b.count);
    });
    expect(batches.at(-1)?.last_offset).toBe(written.length - 1);
  });

  it('reads from inside a batch: fetches smaller than the batch, and a redelivery from a partial commit', async () => {
    const log = await open();
    const values = Array.from({ length: 10 }, (_, i) => `v${i}`);
    await log.produce(
      'one-batch',
      values.map((v) => ({ key: 'k', value: Buffer.from(v) })),
    );
    expect(storedBatches(directory, 'one-batch')).toHaveLength(1);

    const small = await collect(log, 'small', 'one-batch', 4);
    await waitFor(() => small.records().length === 10);
    expect(small.batches.map((b) => b.map((r) => r.offset))).toEqual([
      ['0', '1', '2', '3'],
      ['4', '5', '6', '7'],
      ['8', '9'],
    ]);
    expect(small.records().map((r) => r.value.toString())).toEqual(values);

    // The handler keeps the first three records and fails: the batch comes again from offset 3.
    const deliveries: string[][] = [];
    await log.consume({
      groupId: 'partial',
      topics: ['one-batch'],
      fromBeginning: true,
      handler: async (batch) => {
        deliveries.push(batch.records.map((r) => r.value.toString()));
        if (deliveries.length === 1) {
          await batch.commit('3');
          throw new Error('fails after its partial commit');
        }
      },
    });
    await waitFor(() => deliveries.length === 2);
    expect(deliveries).toEqual([values, values.slice(3)]);
  });

  it('deletes a batch whole, once its newest record is past the time bound', async () => {
    const log = await open({ retentionChunkRows: 3 });
    await log.ensureTopics([{ name: 'timed', retentionMs: HOUR }]);
    const now = Date.now();
    const old = (n: number) =>
      Array.from({ length: n }, (_, i): ProduceRecord => ({
        key: 'k',
        value: Buffer.from(`old${i}`),
        timestamp: now - 2 * HOUR,
      }));
    await log.produce('timed', old(5));
    await log.produce('timed', old(2));
    // An old record and a fresh one in one batch: it stays until the fresh one is due.
    await log.produce('timed', [...old(1), { key: 'k', value: Buffer.from('fresh'), timestamp: now }]);
    await log.produce('timed', old(1));

    expect(await log.runRetention(now)).toBe(7);
    expect(storedBatches(directory, 'timed').map((b) => [b.base_offset, b.last_offset])).toEqual([
      [7, 8],
      [9, 9],
    ]);
    expect(await log.lag('g', 'timed')).toEqual([{ partition: 0, offset: '-1', endOffset: '10', lag: 3 }]);
    const { records } = await collect(log, 'g', 'timed');
    await waitFor(() => records().length === 3);
    expect(records().map((r) => r.offset)).toEqual(['7', '8', '9']);

    expect(await log.runRetention(now + 2 * HOUR)).toBe(3);
    const [next] = await log.produce('timed', [{ key: 'k', value: Buffer.from('next') }]);
    expect(next?.offset).toBe('10');
  });

  it('bounds a partition by the compressed size of its batches, deleting the oldest whole', async () => {
    const log = await open();
    await log.ensureTopics([{ name: 'sized', retentionMs: -1 }]);
    const appends = 20;
    let raw = 0;
    for (let i = 0; i < appends; i++) {
      const records = metadataRecords(5);
      raw += records.reduce((sum, r) => sum + r.key.length + r.value.length, 0);
      await log.produce('sized', records);
    }
    const batches = storedBatches(directory, 'sized');
    expect(batches).toHaveLength(appends);
    const total = storedBytes(directory, 'sized');
    // Kept at their compressed size: far more records fit the bound than their raw size would allow.
    const bound = Math.floor(total / 2);
    expect(bound).toBeLessThan(raw / 8);
    await opened[0]!.close();
    const bounded = await open({ topicRetention: { sized: { retentionBytes: bound } } });

    const deleted = await bounded.runRetention();
    const kept = storedBatches(directory, 'sized');
    expect(deleted % 10).toBe(0);
    expect(deleted).toBe((appends - kept.length) * 10);
    expect(storedBytes(directory, 'sized')).toBeLessThanOrEqual(bound);
    // The oldest went, and no more than needed: keeping the last one deleted would pass the bound.
    expect(kept[0]?.base_offset).toBe(deleted);
    expect(storedBytes(directory, 'sized') + batches[appends - kept.length - 1]!.bytes).toBeGreaterThan(
      bound,
    );
    expect(await bounded.runRetention()).toBe(0);
  });

  it('stores realistic records in a fraction of their size, and no larger than plain even one at a time', async () => {
    const records = metadataRecords(100);
    const plainDir = join(directory, 'plain');
    const deflateDir = join(directory, 'deflate');
    const plain = await open({ compression: 'none' }, plainDir);
    const deflate = await open({}, deflateDir);
    for (let i = 0; i < records.length; i += 10) {
      await plain.produce('mcl', records.slice(i, i + 10));
      await deflate.produce('mcl', records.slice(i, i + 10));
    }
    expect(storedBatches(plainDir, 'mcl').every((b) => b.codec === Codec.none)).toBe(true);
    expect(storedBatches(deflateDir, 'mcl').every((b) => b.codec === Codec.deflate)).toBe(true);
    const plainBytes = storedBytes(plainDir, 'mcl');
    const deflateBytes = storedBytes(deflateDir, 'mcl');
    expect(deflateBytes).toBeLessThan(plainBytes / 4);

    // A record appended alone is a batch of one: compressed too, as Kafka compresses whatever it batched.
    const single = await open({}, join(directory, 'single'));
    for (const record of records.slice(0, 20)) await single.produce('mcl', [record]);
    const singles = storedBatches(join(directory, 'single'), 'mcl');
    expect(singles.every((b) => b.count === 1 && b.codec === Codec.deflate)).toBe(true);
    expect(storedBytes(join(directory, 'single'), 'mcl')).toBeLessThan(
      storedBatches(plainDir, 'mcl')[0]!.bytes + storedBatches(plainDir, 'mcl')[1]!.bytes,
    );

    // A value that does not compress is stored plain rather than grown.
    const tiny = await open({}, join(directory, 'tiny'));
    await tiny.produce('t', [{ key: 'k', value: Buffer.from('x') }]);
    expect(storedBatches(join(directory, 'tiny'), 't').map((b) => b.codec)).toEqual([Codec.none]);
  });

  it('opens a file written before batches, reads its records, then the batches after them', async () => {
    const file = join(directory, 'eventlog.sqlite');
    const legacy = new Database(file);
    // The layout as releases before batches wrote it: a record per row.
    legacy.exec(`
      CREATE TABLE topics (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, partitions INTEGER NOT NULL,
        retention_ms INTEGER NOT NULL DEFAULT -1, retention_bytes INTEGER NOT NULL DEFAULT -1);
      CREATE TABLE partition_ends (topic_id INTEGER NOT NULL, partition INTEGER NOT NULL,
        next_offset INTEGER NOT NULL, bytes INTEGER, PRIMARY KEY (topic_id, partition)) WITHOUT ROWID;
      CREATE TABLE records (topic_id INTEGER NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
        key TEXT NOT NULL, value BLOB NOT NULL, headers TEXT, timestamp INTEGER NOT NULL,
        PRIMARY KEY (topic_id, partition, offset)) WITHOUT ROWID;
      CREATE TABLE group_offsets (group_id TEXT NOT NULL, topic_id INTEGER NOT NULL, partition INTEGER NOT NULL,
        next_offset INTEGER NOT NULL, PRIMARY KEY (group_id, topic_id, partition)) WITHOUT ROWID;
      INSERT INTO topics (id, name, partitions, retention_ms) VALUES (1, 'legacy', 1, ${HOUR});
      INSERT INTO partition_ends VALUES (1, 0, 6, NULL);
      INSERT INTO group_offsets VALUES ('g', 1, 0, 2);
    `);
    const now = Date.now();
    const insert = legacy.prepare('INSERT INTO records VALUES (1, 0, ?, ?, ?, ?, ?)');
    // Offsets 0 to 5, the first two already deleted by retention; 2 and 3 old, 4 and 5 fresh.
    for (let offset = 2; offset < 6; offset++) {
      insert.run(
        offset,
        `k${offset}`,
        Buffer.from(`legacy${offset}`),
        offset === 5 ? '{"h":"v"}' : null,
        offset < 4 ? now - 2 * HOUR : now,
      );
    }
    legacy.close();

    const log = await open();
    expect(await log.lag('g', 'legacy')).toEqual([{ partition: 0, offset: '2', endOffset: '6', lag: 4 }]);
    await log.produce('legacy', [
      { key: 'k6', value: Buffer.from('batched6'), timestamp: now - 2 * HOUR },
      { key: 'k7', value: Buffer.from('batched7'), timestamp: now - 2 * HOUR },
    ]);
    await log.produce('legacy', [{ key: 'k8', value: Buffer.from('batched8') }]);

    // A fetch spans both: the older rows, then the batches, from the group's committed offset.
    const fetched = await collect(log, 'g', 'legacy', 3);
    await waitFor(() => fetched.records().length === 7);
    expect(fetched.batches.map((b) => b.map((r) => r.value.toString()))).toEqual([
      ['legacy2', 'legacy3', 'legacy4'],
      ['legacy5', 'batched6', 'batched7'],
      ['batched8'],
    ]);
    expect(fetched.records()[3]?.headers).toEqual({ h: 'v' });
    await fetched.consumer.stop();

    // Retention takes the older rows first, and a batch only once none of them is left before it.
    expect(await log.runRetention(now)).toBe(2);
    expect(await log.lag('h', 'legacy')).toEqual([{ partition: 0, offset: '-1', endOffset: '9', lag: 5 }]);
    expect(await log.runRetention(now + 2 * HOUR)).toBe(5);
    const [next] = await log.produce('legacy', [{ key: 'k', value: Buffer.from('next') }]);
    expect(next?.offset).toBe('9');
  });
});
