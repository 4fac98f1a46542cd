import type avro from 'avsc';
import type {
  DataHubUpgradeHistoryEvent,
  FailedMetadataChangeProposal,
  MetadataChangeLog,
  MetadataChangeProposal,
  PlatformEvent,
} from './event-types.js';
import { avroJsonOf } from './avro-json.js';
import { eventSchemaTypes, SchemaIds } from './schemas/event-schemas.js';
import { SerdeError } from './serde-error.js';

/**
 * Events in the Confluent schema-registry wire format: magic byte 0x00, the schema id as a 4-byte
 * big-endian integer, then the Avro binary body. This is what the ecosystem's KafkaAvroSerializer and
 * its Python emitter write, so records cross between them and us unchanged.
 */

const MAGIC_BYTE = 0;
const HEADER_LENGTH = 5;

/** Looks up the writer schema of a registry id (the schema registry, later). */
export type SchemaResolver = (id: number) => Promise<avro.Type | undefined>;

/** The events by kind, with their reader schema and the fixed ids written with exactly that schema. */
export interface EventsByKind {
  metadataChangeProposal: MetadataChangeProposal;
  metadataChangeLog: MetadataChangeLog;
  failedMetadataChangeProposal: FailedMetadataChangeProposal;
  platformEvent: PlatformEvent;
  upgradeHistory: DataHubUpgradeHistoryEvent;
}
export type EventKind = keyof EventsByKind;

const readers: { readonly [K in EventKind]: { readonly type: avro.Type; readonly ids: readonly number[] } } =
  {
    metadataChangeProposal: {
      type: eventSchemaTypes.metadataChangeProposal,
      ids: [SchemaIds.metadataChangeProposal],
    },
    metadataChangeLog: {
      type: eventSchemaTypes.metadataChangeLog,
      ids: [SchemaIds.metadataChangeLog, SchemaIds.metadataChangeLogTimeseries],
    },
    failedMetadataChangeProposal: {
      type: eventSchemaTypes.failedMetadataChangeProposal,
      ids: [SchemaIds.failedMetadataChangeProposal],
    },
    platformEvent: { type: eventSchemaTypes.platformEvent, ids: [SchemaIds.platformEvent] },
    upgradeHistory: { type: eventSchemaTypes.upgradeHistory, ids: [SchemaIds.upgradeHistory] },
  };

/** Splits a framed value into its schema id and Avro body. */
export function readSchemaId(buf: Buffer): { readonly schemaId: number; readonly body: Buffer } {
  if (buf.length === 0) throw new SerdeError('truncated', 'empty value: no schema-registry header');
  if (buf[0] !== MAGIC_BYTE) {
    throw new SerdeError('bad-magic-byte', `bad magic byte 0x${(buf[0] ?? 0).toString(16)}, expected 0x00`);
  }
  if (buf.length < HEADER_LENGTH) throw new SerdeError('truncated', 'value shorter than the 5-byte header');
  return { schemaId: buf.readInt32BE(1), body: buf.subarray(HEADER_LENGTH) };
}

function encodeEvent(kind: EventKind, event: object, schemaId: number): Buffer {
  const { type } = readers[kind];
  let body: Buffer;
  try {
    body = type.toBuffer(event);
  } catch (cause) {
    const paths: string[] = [];
    type.isValid(event, { errorHook: (path) => paths.push(path.join('.') || '(root)') });
    const where = paths.length > 0 ? ` at ${paths.join(', ')}` : '';
    throw new SerdeError('invalid-event', `not a valid ${type.name ?? kind}${where}`, { cause });
  }
  const out = Buffer.allocUnsafe(HEADER_LENGTH + body.length);
  out[0] = MAGIC_BYTE;
  out.writeInt32BE(schemaId, 1);
  body.copy(out, HEADER_LENGTH);
  return out;
}

function decodeBody(type: avro.Type, body: Buffer, resolver: avro.Resolver | undefined): unknown {
  let decoded: { value: unknown; offset: number };
  try {
    decoded = type.decode(body, 0, resolver);
  } catch (cause) {
    throw new SerdeError('malformed', `malformed ${type.name ?? 'Avro'} record`, { cause });
  }
  if (decoded.offset < 0) throw new SerdeError('truncated', `truncated ${type.name ?? 'Avro'} record`);
  if (decoded.offset !== body.length) {
    throw new SerdeError('trailing-bytes', `${body.length - decoded.offset} bytes after the record`);
  }
  return toPlain(decoded.value);
}

/**
 * avsc yields record class instances with null for absent optionals and byte slices sharing the input;
 * callers get plain objects with absent optionals omitted and bytes they own.
 */
function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const plain = toPlain(field);
      if (plain !== undefined) out[key] = plain;
    }
    return out;
  }
  return value;
}

/** Decodes a value written with one of the fixed ids of `kind` (our own schemas, no resolution needed). */
export function decodeEvent<K extends EventKind>(kind: K, buf: Buffer): EventsByKind[K] {
  const { schemaId, body } = readSchemaId(buf);
  const reader = readers[kind];
  if (!reader.ids.includes(schemaId)) {
    throw new SerdeError(
      'unknown-schema-id',
      `schema id ${schemaId} is not a ${reader.type.name ?? kind} schema`,
    );
  }
  // The schema guarantees the shape; toPlain only removes nulls and copies bytes.
  return decodeBody(reader.type, body, undefined) as EventsByKind[K];
}

/**
 * A record of one of our own schemas of `kind` as the text of its Avro JSON encoding (unions wrapped,
 * bytes as ISO-8859-1 characters), the form the ecosystem's events poll serves.
 */
export function eventAsAvroJson(kind: EventKind, buf: Buffer): string {
  const { schemaId, body } = readSchemaId(buf);
  const reader = readers[kind];
  if (!reader.ids.includes(schemaId)) {
    throw new SerdeError(
      'unknown-schema-id',
      `schema id ${schemaId} is not a ${reader.type.name ?? kind} schema`,
    );
  }
  let decoded: { value: unknown; offset: number };
  try {
    decoded = reader.type.decode(body, 0);
  } catch (cause) {
    throw new SerdeError('malformed', `malformed ${reader.type.name ?? 'Avro'} record`, { cause });
  }
  if (decoded.offset !== body.length)
    throw new SerdeError('malformed', `malformed ${reader.type.name ?? 'Avro'} record`);
  return JSON.stringify(avroJsonOf(reader.type, decoded.value));
}

export interface EventDecoder {
  /** Decodes `buf` as `kind`, resolving a foreign writer schema through the resolver when needed. */
  decode<K extends EventKind>(kind: K, buf: Buffer): Promise<EventsByKind[K]>;
}

/**
 * A decoder for records written by other producers under other registry ids: the writer schema comes from
 * `resolveSchema`, and avsc's resolving decoder reads it into our reader schema (new fields take defaults,
 * unknown ones are skipped). Fixed ids decode directly.
 */
export function createEventDecoder(resolveSchema: SchemaResolver): EventDecoder {
  const resolvers = new Map<string, avro.Resolver>();
  return {
    async decode<K extends EventKind>(kind: K, buf: Buffer): Promise<EventsByKind[K]> {
      const { schemaId, body } = readSchemaId(buf);
      const reader = readers[kind];
      if (reader.ids.includes(schemaId)) return decodeBody(reader.type, body, undefined) as EventsByKind[K];
      const cacheKey = `${kind}:${schemaId}`;
      let resolver = resolvers.get(cacheKey);
      if (!resolver) {
        const writer = await resolveSchema(schemaId);
        if (!writer) throw new SerdeError('unknown-schema-id', `unknown schema id ${schemaId}`);
        try {
          resolver = reader.type.createResolver(writer);
        } catch (cause) {
          throw new SerdeError(
            'incompatible-schema',
            `schema id ${schemaId} cannot be read as ${reader.type.name ?? kind}`,
            {
              cause,
            },
          );
        }
        resolvers.set(cacheKey, resolver);
      }
      return decodeBody(reader.type, body, resolver) as EventsByKind[K];
    },
  };
}

export function encodeMcp(
  mcp: MetadataChangeProposal,
  schemaId: number = SchemaIds.metadataChangeProposal,
): Buffer {
  return encodeEvent('metadataChangeProposal', mcp, schemaId);
}
export function decodeMcp(buf: Buffer): MetadataChangeProposal {
  return decodeEvent('metadataChangeProposal', buf);
}

/** `schemaId` is 2 on the versioned topic and 3 on the time-series topic (same schema). */
export function encodeMcl(mcl: MetadataChangeLog, schemaId: number = SchemaIds.metadataChangeLog): Buffer {
  return encodeEvent('metadataChangeLog', mcl, schemaId);
}
export function decodeMcl(buf: Buffer): MetadataChangeLog {
  return decodeEvent('metadataChangeLog', buf);
}

export function encodeFailedMcp(
  failed: FailedMetadataChangeProposal,
  schemaId: number = SchemaIds.failedMetadataChangeProposal,
): Buffer {
  return encodeEvent('failedMetadataChangeProposal', failed, schemaId);
}
export function decodeFailedMcp(buf: Buffer): FailedMetadataChangeProposal {
  return decodeEvent('failedMetadataChangeProposal', buf);
}

export function encodePlatformEvent(
  event: PlatformEvent,
  schemaId: number = SchemaIds.platformEvent,
): Buffer {
  return encodeEvent('platformEvent', event, schemaId);
}
export function decodePlatformEvent(buf: Buffer): PlatformEvent {
  return decodeEvent('platformEvent', buf);
}

export function encodeUpgradeHistory(
  event: DataHubUpgradeHistoryEvent,
  schemaId: number = SchemaIds.upgradeHistory,
): Buffer {
  return encodeEvent('upgradeHistory', event, schemaId);
}
export function decodeUpgradeHistory(buf: Buffer): DataHubUpgradeHistoryEvent {
  return decodeEvent('upgradeHistory', buf);
}
