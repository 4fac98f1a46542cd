import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ProduceRecord, RecordHeaders } from '../port.js';
import type { PlacedRecord } from './log-database.js';

/**
 * The embedded log's unit of storage, as Kafka's record batch: the records one append put on one
 * partition, stored together in one row, their keys, values, headers and timestamps in one payload that
 * is compressed as a whole (records of a topic repeat one another's schema, URNs and aspect names, which
 * compression across records finds).
 *
 * Payload, per record in offset order: timestamp (float64 LE: any safe integer), then key, headers (JSON;
 * length -1 when there are none) and value, each as an int32 LE length and its bytes.
 */

/** Codec ids, Kafka's numbering where it has one (0 none; gzip is 1, this is its stream without the gzip frame). */
export const Codec = { none: 0, deflate: 1 } as const;
export type Codec = (typeof Codec)[keyof typeof Codec];

/**
 * Uncompressed bytes at which an append starts a new batch on the same partition. Compression gains
 * little past a few windows of deflate (32 KiB each), and a consumer starting inside a batch inflates
 * all of it. A record larger than this is a batch of its own.
 */
export const MAX_BATCH_BYTES = 128 * 1024;

const TIMESTAMP_BYTES = 8;
const LENGTH_BYTES = 4;
/** Framing per record in the payload (timestamp and three lengths). */
export const RECORD_FRAMING_BYTES = TIMESTAMP_BYTES + 3 * LENGTH_BYTES;

/** A record as the log stores it: headers already serialized (null when it has none). */
export interface BatchEntry {
  readonly key: string;
  readonly value: Buffer;
  readonly headers: string | null;
  readonly timestamp: number;
}

/** A batch ready to store: offsets are given to it inside the append transaction. */
export interface EncodedBatch {
  readonly count: number;
  readonly maxTimestamp: number;
  readonly codec: Codec;
  readonly payload: Buffer;
}

export interface DecodedRecord {
  readonly offset: number;
  readonly key: string;
  readonly value: Buffer;
  readonly headers: RecordHeaders;
  readonly timestamp: number;
}

/** The headers column of a record: JSON, or null when it has none (so most records store nothing). */
export function serializeHeaders(record: ProduceRecord): string | null {
  return record.headers && Object.keys(record.headers).length > 0 ? JSON.stringify(record.headers) : null;
}

/** Bytes the entry takes in an uncompressed payload. */
export function entryBytes(entry: BatchEntry): number {
  return (
    RECORD_FRAMING_BYTES +
    Buffer.byteLength(entry.key) +
    (entry.headers === null ? 0 : Buffer.byteLength(entry.headers)) +
    entry.value.length
  );
}

/**
 * Encodes the entries as one batch, compressed with `codec`; a compressed payload that is not smaller
 * than the plain one (a tiny record, or one already compressed) is stored plain instead.
 */
export function encodeBatch(entries: readonly BatchEntry[], codec: Codec): EncodedBatch {
  if (entries.length === 0) throw new RangeError('a record batch needs at least one record');
  let size = 0;
  let maxTimestamp = -Infinity;
  for (const entry of entries) {
    size += entryBytes(entry);
    if (entry.timestamp > maxTimestamp) maxTimestamp = entry.timestamp;
  }
  const plain = Buffer.allocUnsafe(size);
  let at = 0;
  for (const entry of entries) {
    at = plain.writeDoubleLE(entry.timestamp, at);
    at = writeString(plain, at, entry.key);
    at = entry.headers === null ? plain.writeInt32LE(-1, at) : writeString(plain, at, entry.headers);
    at = plain.writeInt32LE(entry.value.length, at);
    at += entry.value.copy(plain, at);
  }
  if (codec !== Codec.none) {
    // zlib's default level, as Kafka's gzip. On change logs, a batch of 16 to 100 records keeps 5 to 10%
    // of its plain size, and appending it costs about what a row per record did; a record appended alone
    // still halves, for about 30 µs more to append and 10 µs more to read (zlib's setup), paid only when
    // no other append shares its transaction (group commit batches concurrent ones), so it stays compressed.
    const compressed = deflateRawSync(plain);
    if (compressed.length < plain.length)
      return { count: entries.length, maxTimestamp, codec, payload: compressed };
  }
  return { count: entries.length, maxTimestamp, codec: Codec.none, payload: plain };
}

/** A batch of one partition, with the positions its records had in the append's input. */
export interface PartitionBatch {
  readonly topicId: number;
  readonly partition: number;
  readonly batch: EncodedBatch;
  readonly indices: readonly number[];
}

/**
 * Groups an append's records into batches, one per partition (more when a partition's records pass
 * MAX_BATCH_BYTES), each partition's in input order, and encodes them: the caller compresses before it
 * takes the write lock, and gives offsets inside it.
 */
export function batchByPartition(placed: readonly PlacedRecord[], codec: Codec): PartitionBatch[] {
  interface Filling {
    readonly topicId: number;
    readonly partition: number;
    readonly entries: BatchEntry[];
    readonly indices: number[];
    bytes: number;
  }
  const filling = new Map<string, Filling>();
  const sealed: PartitionBatch[] = [];
  const seal = (f: Filling): void => {
    sealed.push({
      topicId: f.topicId,
      partition: f.partition,
      batch: encodeBatch(f.entries, codec),
      indices: f.indices,
    });
  };
  placed.forEach(({ topicId, partition, record, timestamp }, index) => {
    const entry: BatchEntry = {
      key: record.key,
      value: record.value,
      headers: serializeHeaders(record),
      timestamp,
    };
    const bytes = entryBytes(entry);
    const slot = `${topicId}:${partition}`;
    let batch = filling.get(slot);
    if (batch && batch.bytes + bytes > MAX_BATCH_BYTES) {
      seal(batch);
      batch = undefined;
    }
    if (!batch) {
      batch = { topicId, partition, entries: [], indices: [], bytes: 0 };
      filling.set(slot, batch);
    }
    batch.entries.push(entry);
    batch.indices.push(index);
    batch.bytes += bytes;
  });
  for (const f of filling.values()) seal(f);
  return sealed;
}

/**
 * The records of a stored batch whose first offset is `baseOffset`, from offset `from` on (those before
 * it are skipped, as a Kafka consumer skips the head of a batch it fetched from inside), at most `limit`.
 * Values are views on the batch's inflated payload.
 */
export function decodeBatch(
  baseOffset: number,
  count: number,
  codec: number,
  payload: Buffer,
  from: number,
  limit: number,
): DecodedRecord[] {
  const plain = inflate(codec, payload);
  const records: DecodedRecord[] = [];
  let at = 0;
  for (let i = 0; i < count && records.length < limit; i++) {
    const timestamp = plain.readDoubleLE(at);
    at += TIMESTAMP_BYTES;
    const keyLength = plain.readInt32LE(at);
    const keyAt = at + LENGTH_BYTES;
    const headersLength = plain.readInt32LE(keyAt + keyLength);
    const headersAt = keyAt + keyLength + LENGTH_BYTES;
    const valueLengthAt = headersAt + Math.max(headersLength, 0);
    const valueLength = plain.readInt32LE(valueLengthAt);
    const valueAt = valueLengthAt + LENGTH_BYTES;
    at = valueAt + valueLength;
    if (at > plain.length) throw new Error(`record batch at offset ${baseOffset} is truncated`);
    const offset = baseOffset + i;
    if (offset < from) continue;
    records.push({
      offset,
      key: plain.toString('utf8', keyAt, keyAt + keyLength),
      value: plain.subarray(valueAt, valueAt + valueLength),
      headers:
        headersLength < 0
          ? {}
          : (JSON.parse(plain.toString('utf8', headersAt, headersAt + headersLength)) as RecordHeaders),
      timestamp,
    });
  }
  return records;
}

function inflate(codec: number, payload: Buffer): Buffer {
  if (codec === Codec.none) return payload;
  if (codec === Codec.deflate) return inflateRawSync(payload);
  throw new Error(`unknown record batch codec ${codec}`);
}

function writeString(target: Buffer, at: number, text: string): number {
  const length = target.write(text, at + LENGTH_BYTES, 'utf8');
  target.writeInt32LE(length, at);
  return at + LENGTH_BYTES + length;
}
