/** Why bytes could not be turned into an event, or an event into bytes. */
export type SerdeErrorReason =
  /** The first byte is not the schema-registry magic byte 0x00. */
  | 'bad-magic-byte'
  /** The schema id is neither a fixed id of the expected event nor known to the resolver. */
  | 'unknown-schema-id'
  /** The writer's schema (from the resolver) cannot be read with ours. */
  | 'incompatible-schema'
  /** The bytes end before the record does. */
  | 'truncated'
  /** Bytes remain after the record. */
  | 'trailing-bytes'
  /** The Avro body is not a valid record of the schema (bad union index, enum symbol, ...). */
  | 'malformed'
  /** An event to encode does not match its schema. */
  | 'invalid-event'
  /** A generic aspect's value is not the JSON its content type says. */
  | 'invalid-payload';

/** Raised for bytes that are not a record of the expected event schema; such a record is poison, not retriable. */
export class SerdeError extends Error {
  constructor(
    readonly reason: SerdeErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SerdeError';
  }
}
