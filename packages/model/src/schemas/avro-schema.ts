import type { AspectKind, RelationshipAnnotation, SearchableField } from '../types.js';

/** JSON as it may appear in a schema default. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [k: string]: JsonValue };

/**
 * Avro schemas as data. Named types are written with their fully qualified ecosystem names
 * (`com.linkedin.common.AuditStamp`) and referenced by that name once defined, so each shared record
 * exists once in the shared avsc registry.
 */
export type AvroSchema =
  string | readonly AvroSchema[] | RecordSchema | EnumSchema | ArraySchema | MapSchema | UrnSchema;

export interface FieldSchema {
  readonly name: string;
  readonly type: AvroSchema;
  readonly default?: JsonValue;
  readonly doc?: string;
}

export interface RecordSchema {
  readonly type: 'record';
  readonly name: string;
  readonly doc?: string;
  readonly fields: readonly FieldSchema[];
}

export interface EnumSchema {
  readonly type: 'enum';
  readonly name: string;
  readonly symbols: readonly string[];
  readonly doc?: string;
}

export interface ArraySchema {
  readonly type: 'array';
  readonly items: AvroSchema;
}

export interface MapSchema {
  readonly type: 'map';
  readonly values: AvroSchema;
}

/**
 * A string carrying a URN (the ecosystem's `com.linkedin.common.Urn` typeref and its kin). The logical
 * type makes the validator check the URN grammar; `entityTypes`, when set, also restricts the entity
 * type (used on key fields, e.g. a dataset's platform must be a dataPlatform URN).
 */
export interface UrnSchema {
  readonly type: 'string';
  readonly logicalType: 'urn';
  readonly entityTypes?: readonly string[];
}

/** An aspect as data: its record schema plus the ecosystem's @Searchable and @Relationship annotations. */
export interface AspectDefinition {
  readonly name: string;
  readonly schema: RecordSchema;
  readonly kind?: AspectKind;
  readonly searchable?: readonly SearchableField[];
  readonly relationships?: readonly RelationshipAnnotation[];
}

export const URN: UrnSchema = { type: 'string', logicalType: 'urn' };

export function urnOf(...entityTypes: string[]): UrnSchema {
  return { type: 'string', logicalType: 'urn', entityTypes };
}

/** The ecosystem's default audit stamp for required stamps that clients may omit. */
export const UNKNOWN_AUDIT_STAMP = { time: 0, actor: 'urn:li:corpuser:unknown' } as const;

export function record(name: string, fields: readonly FieldSchema[], doc?: string): RecordSchema {
  return doc === undefined ? { type: 'record', name, fields } : { type: 'record', name, fields, doc };
}

export function enumOf(name: string, symbols: readonly string[]): EnumSchema {
  return { type: 'enum', name, symbols };
}

export function arrayOf(items: AvroSchema): ArraySchema {
  return { type: 'array', items };
}

export function mapOf(values: AvroSchema): MapSchema {
  return { type: 'map', values };
}

/** A required field, with an optional default that reads fill in when the client omits the field. */
export function req(name: string, type: AvroSchema, defaultValue?: JsonValue): FieldSchema {
  return defaultValue === undefined ? { name, type } : { name, type, default: defaultValue };
}

/** An optional field: `["null", T]` with default null, as the ecosystem's Avro conversion writes it. */
export function opt(name: string, type: AvroSchema): FieldSchema {
  return { name, type: ['null', type], default: null };
}

/** `customProperties: map<string,string> = {}` (the ecosystem's CustomProperties include). */
export const CUSTOM_PROPERTIES: FieldSchema = req('customProperties', mapOf('string'), {});
/** `externalUrl: optional Url` (the ecosystem's ExternalReference include). */
export const EXTERNAL_URL: FieldSchema = opt('externalUrl', 'string');

/** Time-series aspects start with the ecosystem's TimeseriesAspectBase fields. */
export const TIMESERIES_BASE: readonly FieldSchema[] = [
  req('timestampMillis', 'long'),
  opt('eventGranularity', 'com.linkedin.timeseries.TimeWindowSize'),
  opt('partitionSpec', 'com.linkedin.timeseries.PartitionSpec'),
  opt('messageId', 'string'),
];

/** Searchable fields every time-series aspect carries in its index. */
export const TIMESERIES_SEARCHABLE: readonly SearchableField[] = [
  { fieldName: 'timestampMillis', path: 'timestampMillis', type: 'DATETIME', queryByDefault: false },
  { fieldName: 'messageId', path: 'messageId', type: 'KEYWORD', queryByDefault: false },
  { fieldName: 'partition', path: 'partitionSpec/partition', type: 'KEYWORD', queryByDefault: false },
];

export function aspect(definition: AspectDefinition): AspectDefinition {
  return definition;
}
