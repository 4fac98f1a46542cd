import type { ProduceRecord } from './port.js';

/** The port's rules for a record to produce; every adapter refuses the same bad records. */
export function validateRecord(record: ProduceRecord): void {
  if (typeof record.key !== 'string') throw new TypeError('record key must be a string');
  if (!Buffer.isBuffer(record.value)) throw new TypeError('record value must be a Buffer');
  if (record.timestamp !== undefined && !Number.isSafeInteger(record.timestamp)) {
    throw new TypeError('record timestamp must be an integer (ms since the epoch)');
  }
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`header ${name} must be a string`);
  }
}

export function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${what} must be a positive integer, got ${value}`);
  return value;
}
