import type { IHeaders, KafkaMessage, RecordMetadata } from 'kafkajs';
import type { LogRecord, RecordHeaders } from '../port.js';

/** Header values arrive as bytes (or a list, when a key repeats: the last wins, as Kafka's lastHeader). */
export function decodeHeaders(headers: IHeaders | undefined): RecordHeaders {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    out[name] = value === undefined || value === null ? '' : value.toString();
  }
  return out;
}

export function toLogRecord(topic: string, partition: number, message: KafkaMessage): LogRecord {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString('utf8') : '',
    value: message.value ?? Buffer.alloc(0),
    headers: decodeHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
}

/**
 * The offset of each record of one produce request, in input order: a partition's records are appended
 * contiguously from its base offset, in the order they were given.
 */
export function offsetsFromMetadata(
  records: readonly { readonly topic: string; readonly partition: number }[],
  metadata: readonly RecordMetadata[],
): string[] {
  const base = new Map<string, bigint>();
  for (const m of metadata) {
    const offset = m.baseOffset ?? m.offset;
    if (offset !== undefined) base.set(`${m.topicName}\u0000${m.partition}`, BigInt(offset));
  }
  const appended = new Map<string, bigint>();
  return records.map(({ topic, partition }) => {
    const key = `${topic}\u0000${partition}`;
    const start = base.get(key);
    if (start === undefined) throw new Error(`no acknowledgement for ${topic}/${partition}`);
    const n = appended.get(key) ?? 0n;
    appended.set(key, n + 1n);
    return (start + n).toString();
  });
}
