import type { ProduceRecord } from './port.js';

/** Kafka's default `max.message.bytes` of the ecosystem's topics (5 MiB); see MAX_MESSAGE_BYTES. */
export const DEFAULT_MAX_MESSAGE_BYTES = 5_242_880;

/**
 * A record larger than the log's message-size limit: the log refuses it, and always will, so a consumer
 * that produced it must dead-letter its input rather than retry (Kafka's MESSAGE_TOO_LARGE).
 */
export class RecordTooLargeError extends Error {
  constructor(
    readonly topic: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`A record of ${bytes} bytes for ${topic} exceeds the log's message-size limit of ${limit} bytes`);
    this.name = 'RecordTooLargeError';
  }
}

/** The bytes a record takes in a Kafka record batch, near enough (key, value, headers, framing). */
export function recordBytes(record: ProduceRecord): number {
  let size = 70 + Buffer.byteLength(record.key) + record.value.length;
  for (const [name, value] of Object.entries(record.headers ?? {}))
    size += name.length + Buffer.byteLength(value);
  return size;
}

/** The port's rules for a record to produce; every adapter refuses the same bad records. */
export function validateRecord(record: ProduceRecord, topic?: string, maxMessageBytes?: number): void {
  if (typeof record.key !== 'string') throw new TypeError('record key must be a string');
  if (!Buffer.isBuffer(record.value)) throw new TypeError('record value must be a Buffer');
  if (record.timestamp !== undefined && !Number.isSafeInteger(record.timestamp)) {
    throw new TypeError('record timestamp must be an integer (ms since the epoch)');
  }
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`header ${name} must be a string`);
  }
  if (maxMessageBytes !== undefined && topic !== undefined) {
    const bytes = recordBytes(record);
    if (bytes > maxMessageBytes) throw new RecordTooLargeError(topic, bytes, maxMessageBytes);
  }
}

export function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${what} must be a positive integer, got ${value}`);
  return value;
}
