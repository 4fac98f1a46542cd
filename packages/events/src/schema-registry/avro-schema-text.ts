import avro from 'avsc';

/** Ids the registry hands out to schemas other than ours start here; 0–22 are the ecosystem's fixed ids. */
export const FIRST_REGISTERED_ID = 100;
const MAX_ID = 0x7fffffff;

/** A schema as posted to or served by the registry: its JSON text, parsed type and canonical fingerprint. */
export interface ParsedSchema {
  readonly text: string;
  readonly type: avro.Type;
  /** SHA-256 of the Parsing Canonical Form (no docs, defaults or aliases), hex. */
  readonly fingerprint: string;
}

/** Parses Avro schema JSON text; throws a RangeError saying why it is not a schema. */
export function parseAvroSchema(text: string): ParsedSchema {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new RangeError('the schema is not valid JSON', { cause });
  }
  let type: avro.Type;
  try {
    type = avro.Type.forSchema(json as avro.Schema);
  } catch (cause) {
    throw new RangeError(`not an Avro schema: ${(cause as Error).message}`, { cause });
  }
  return { text, type, fingerprint: type.fingerprint('sha256').toString('hex') };
}

/**
 * The id of a schema we did not define, derived from its canonical fingerprint: every gateway computes the
 * same id without coordination, and registering the same schema again gives the same id.
 */
export function derivedSchemaId(fingerprint: string): number {
  const n = Number.parseInt(fingerprint.slice(0, 8), 16);
  return FIRST_REGISTERED_ID + (n % (MAX_ID - FIRST_REGISTERED_ID));
}

/** Whether records written with `writer` can be read with `reader` (avsc schema resolution). */
export function canRead(reader: avro.Type, writer: avro.Type): boolean {
  try {
    reader.createResolver(writer);
    return true;
  } catch {
    return false;
  }
}
