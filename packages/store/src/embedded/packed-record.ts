import type { ApplyStatus } from '../port.js';
import {
  LIST_FIELDS,
  SINGLE_FIELDS,
  type References,
  type RowReference,
  type RowReferenceRecord,
} from './recorded-result.js';
import { decodeJson, encodeJson } from './stored-json.js';

/**
 * A request record of format PACKED_REFERENCES (recorded-result.ts), as applied_requests.result
 * stores it: a BLOB naming the URN and the aspect names by their dictionary ids (keyed-by-ids.ts)
 * where a record of format ROW_REFERENCES spelled them out in JSON (a dataset's URN alone took 50 to
 * 90 bytes of each record, and about 1.4 records are written per aspect).
 *
 *   status        one byte: its index in STATUSES
 *   fields        one byte: a bit per field present (FIELD_BITS)
 *   urn id        varint: urns.id (or removed_urns.id), 0 when the record names no row
 *   references    previous, current, keyCreated as one reference each; defaultsCreated and removed
 *                 as a varint count, then that many references
 *   rest          when a rejection or kept system metadata is present: the JSON array
 *                 [rejection (when present), ...kept system metadata texts], as stored-json.ts
 *                 stores JSON, after one byte: 0 for its text (UTF-8), else it is stored-json's
 *                 BLOB, whose codec byte is not 0.
 *
 * A reference is: varint aspect_names.id; varint RowIdentity.row, zigzag (REMOVED is -1); the
 * rowHash digest's 9 bytes (its 12 base64 characters hold exactly 72 bits); varint index of its kept
 * system metadata plus one, 0 when it has none. A version 0 of a new entity costs 12 bytes.
 *
 * An id read back names its text for good: aspect names are never deleted, and URN ids are never
 * handed out again (AUTOINCREMENT), the text of a removed one is kept in removed_urns while a record
 * may name it (see keyed-by-ids.ts).
 */

/** Statuses by their byte; append only (a stored record keeps its byte). */
const STATUSES: readonly ApplyStatus[] = [
  'CREATED',
  'UPDATED',
  'UNCHANGED',
  'DELETED',
  'CONFLICT',
  'NOT_FOUND',
  'INVALID',
];
const FIELD_BITS = {
  previous: 1,
  current: 2,
  keyCreated: 4,
  defaultsCreated: 8,
  removed: 16,
  rejection: 32,
  systemMetadata: 64,
} as const;
const DIGEST_BYTES = 9;
/** The byte before the rest when stored-json kept it as text; its BLOB codecs are never 0. */
const REST_AS_TEXT = 0;

/** The dictionary ids a packed record names, as the write path knows them. */
export interface RecordIds {
  /** urns.id of the write's URN; 0 when the record names no row. */
  readonly urnId: number;
  readonly aspectId: (name: string) => number;
}

/** The texts of the ids a packed record names; undefined when one is unknown. */
export interface RecordTexts {
  readonly urn: (id: number) => string | undefined;
  readonly aspect: (id: number) => string | undefined;
}

export function packRecord(references: References, ids: RecordIds): Buffer {
  const out = new ByteWriter();
  const status = STATUSES.indexOf(references.status);
  if (status < 0) throw new Error(`a request record cannot hold the status ${references.status}`);
  out.byte(status);
  const { rejection, systemTexts } = references;
  let fields = 0;
  for (const field of [...SINGLE_FIELDS, ...LIST_FIELDS])
    if (references[field] !== undefined) fields |= FIELD_BITS[field];
  if (rejection !== undefined) fields |= FIELD_BITS.rejection;
  if (systemTexts.length > 0) fields |= FIELD_BITS.systemMetadata;
  out.byte(fields);
  out.varint(ids.urnId);
  const reference = ([aspect, row, digest, index]: RowReference): void => {
    out.varint(ids.aspectId(aspect));
    out.varint(row < 0 ? -2 * row - 1 : 2 * row);
    const bytes = Buffer.from(digest, 'base64');
    if (bytes.length !== DIGEST_BYTES) throw new Error('a row digest is not 9 bytes');
    out.bytes(bytes);
    out.varint(index === undefined ? 0 : index + 1);
  };
  for (const field of SINGLE_FIELDS) {
    const one = references[field];
    if (one !== undefined) reference(one);
  }
  for (const field of LIST_FIELDS) {
    const list = references[field];
    if (list === undefined) continue;
    out.varint(list.length);
    list.forEach(reference);
  }
  if (rejection !== undefined || systemTexts.length > 0) {
    const texts = rejection === undefined ? systemTexts : [JSON.stringify(rejection), ...systemTexts];
    const rest = encodeJson(`[${texts.join(',')}]`);
    if (typeof rest === 'string') {
      out.byte(REST_AS_TEXT);
      out.bytes(Buffer.from(rest, 'utf8'));
    } else {
      out.bytes(rest);
    }
  }
  return out.done();
}

/** The record a packed one holds; undefined when it names an id the file no longer has. */
export function unpackRecord(packed: Buffer, texts: RecordTexts): RowReferenceRecord | undefined {
  const input = new ByteReader(packed);
  const status = STATUSES[input.byte()];
  if (status === undefined) throw new Error('a request record holds a status this build does not know');
  const fields = input.byte();
  const urnId = input.varint();
  let missing = false;
  const urn = urnId === 0 ? '' : (texts.urn(urnId) ?? ((missing = true), ''));
  const reference = (): RowReference => {
    const aspect = texts.aspect(input.varint()) ?? ((missing = true), '');
    const zigzag = input.varint();
    const row = zigzag % 2 === 1 ? -(zigzag + 1) / 2 : zigzag / 2;
    const digest = input.bytes(DIGEST_BYTES).toString('base64');
    const index = input.varint();
    return index === 0 ? [aspect, row, digest] : [aspect, row, digest, index - 1];
  };
  const record: { -readonly [K in keyof RowReferenceRecord]: RowReferenceRecord[K] } = { status, urn };
  for (const field of SINGLE_FIELDS) if ((fields & FIELD_BITS[field]) !== 0) record[field] = reference();
  for (const field of LIST_FIELDS) {
    if ((fields & FIELD_BITS[field]) === 0) continue;
    record[field] = Array.from({ length: input.varint() }, reference);
  }
  const hasRejection = (fields & FIELD_BITS.rejection) !== 0;
  if (hasRejection || (fields & FIELD_BITS.systemMetadata) !== 0) {
    const rest = input.rest();
    const text = rest[0] === REST_AS_TEXT ? decodeJson(rest.subarray(1).toString('utf8')) : decodeJson(rest);
    const values = JSON.parse(text) as unknown[];
    if (hasRejection) record.rejection = values.shift() as RowReferenceRecord['rejection'];
    if (values.length > 0) record.systemMetadata = values;
  }
  return missing ? undefined : record;
}

/** Appends bytes to a buffer that grows as needed. */
class ByteWriter {
  private buffer = Buffer.allocUnsafe(64);
  private length = 0;

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  /** A non-negative integer, 7 bits a byte, lowest first, the high bit set on all but the last. */
  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a varint: ${value}`);
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  bytes(data: Buffer): void {
    this.reserve(data.length);
    data.copy(this.buffer, this.length);
    this.length += data.length;
  }

  done(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }

  private reserve(more: number): void {
    if (this.length + more <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + more));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** Reads what ByteWriter wrote; a record cut short throws rather than reading past its end. */
class ByteReader {
  private at = 0;

  constructor(private readonly buffer: Buffer) {}

  byte(): number {
    if (this.at >= this.buffer.length) throw new Error('a packed request record ends too soon');
    return this.buffer[this.at++]!;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  bytes(length: number): Buffer {
    if (this.at + length > this.buffer.length) throw new Error('a packed request record ends too soon');
    const out = this.buffer.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  rest(): Buffer {
    const out = this.buffer.subarray(this.at);
    this.at = this.buffer.length;
    return out;
  }
}
