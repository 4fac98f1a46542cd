/**
 * Key-hash partitioning identical to Kafka's Java default partitioner and kafkajs's DefaultPartitioner:
 * murmur2 (seed 0x9747b28c) over the key's UTF-8 bytes, made positive by masking the sign bit, modulo the
 * partition count. The embedded log uses it so a key lands on the same partition number as on Kafka.
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Kafka's murmur2: a signed 32-bit hash of the bytes (a string is taken as UTF-8). */
export function murmur2(data: Buffer | string): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const length = bytes.length;
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = bytes.readInt32LE(i);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  // The tail bytes, most significant first, as Java's fall-through switch does.
  const rest = length & 3;
  if (rest === 3) h ^= (bytes[whole + 2] ?? 0) << 16;
  if (rest >= 2) h ^= (bytes[whole + 1] ?? 0) << 8;
  if (rest >= 1) {
    h ^= bytes[whole] ?? 0;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `toPositive`: drops the sign bit rather than taking an absolute value. */
export function toPositive(hash: number): number {
  return hash & 0x7fffffff;
}

/** The partition of a key among `numPartitions`, as Kafka's default partitioner chooses it. */
export function partitionForKey(key: string | Buffer, numPartitions: number): number {
  if (!Number.isInteger(numPartitions) || numPartitions < 1) {
    throw new RangeError(`numPartitions must be a positive integer, got ${numPartitions}`);
  }
  return toPositive(murmur2(key)) % numPartitions;
}
