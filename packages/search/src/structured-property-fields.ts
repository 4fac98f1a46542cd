import {
  entityRegistry,
  isValidDate,
  javaDouble,
  logicalTypeOf,
  searchFieldNameOf,
  type LogicalValueType,
  type SearchFieldType,
} from '@catalog/model';
import type { FieldMapping, StructuredPropertySearchDefinition } from './port.js';

/**
 * Structured properties in search, named as the ecosystem names them (StructuredPropertyUtils):
 * - filters and facets say `structuredProperties.<qualifiedName>` (dots kept; `.keyword` ignored); the
 *   stored form `structuredProperties.<qualifiedName with . → _>` is accepted too, as the ecosystem's
 *   own tests send it;
 * - the document field is `structuredProperties.<qualifiedName with . → _>`, or, for a definition with a
 *   `version`, `structuredProperties._versioned.<qualifiedName with . → _>.<version>.<type>`.
 */
export const STRUCTURED_PROPERTIES_PREFIX = 'structuredProperties.';
const VERSIONED = '_versioned';

/**
 * The property urns of an entity's structuredProperties assignments, whatever their definitions say
 * (KEYWORD, not searched by full text): the indexer finds the documents to rebuild through it when a
 * definition changes (a new version, a definition that arrives after its values).
 */
export const STRUCTURED_PROPERTY_URNS_FIELD = 'structuredPropertyUrns';

let holdingTypes: readonly string[] | undefined;

/** The searchable entity types that can hold structured property values (a `structuredProperties` aspect). */
export function entityTypesWithStructuredProperties(): readonly string[] {
  holdingTypes ??= entityRegistry
    .entities()
    .filter((entity) => entity.searchable && entity.aspects.has('structuredProperties'))
    .map((entity) => entity.name);
  return holdingTypes;
}

/** The search type of a definition's valueType: data types the ecosystem does not know index nothing. */
export type StructuredValueType = LogicalValueType | 'unknown';

export function structuredValueTypeOf(valueTypeUrn: string): StructuredValueType {
  return logicalTypeOf(valueTypeUrn) ?? 'unknown';
}

export function isStructuredPropertyField(name: string): boolean {
  return name.startsWith(STRUCTURED_PROPERTIES_PREFIX);
}

/** The qualified name in its field form: `.` → `_` (names differing only so are rejected on write). */
export const normalizedPropertyName = searchFieldNameOf;

/** The document field a definition's values go to (see the module comment). */
export function structuredPropertyFieldName(definition: StructuredPropertySearchDefinition): string {
  const name = normalizedPropertyName(definition.qualifiedName);
  return definition.version === undefined
    ? `${STRUCTURED_PROPERTIES_PREFIX}${name}`
    : `${STRUCTURED_PROPERTIES_PREFIX}${VERSIONED}.${name}.${definition.version}.${definition.valueType}`;
}

/**
 * The normalized property name a document field belongs to: `<name>` of `structuredProperties.<name>`
 * or of `structuredProperties._versioned.<name>.<version>.<type>`; undefined for any other field.
 */
export function propertyNameOfField(field: string): string | undefined {
  if (!isStructuredPropertyField(field)) return undefined;
  const parts = field.slice(STRUCTURED_PROPERTIES_PREFIX.length).split('.');
  if (parts.some((p) => p === '')) return undefined;
  if (parts.length === 1 && parts[0] !== VERSIONED) return parts[0];
  return parts[0] === VERSIONED && parts.length === 4 ? parts[1] : undefined;
}

/**
 * The index type of a value type (the ecosystem's: number → double, date → date, rich_text → text,
 * string, urn and unknown → keyword). Dates are indexed as epoch milliseconds (UTC midnight).
 */
export function structuredFieldTypeOf(valueType: StructuredValueType): SearchFieldType {
  switch (valueType) {
    case 'number':
      return 'DOUBLE';
    case 'date':
      return 'DATETIME';
    case 'rich_text':
      return 'TEXT';
    default:
      return 'KEYWORD';
  }
}

/** The field mapping of a definition's document field: filterable and facetable, never full text. */
export function structuredFieldMapping(definition: StructuredPropertySearchDefinition): FieldMapping {
  return { name: structuredPropertyFieldName(definition), type: structuredFieldTypeOf(definition.valueType) };
}

/** What a request name (`structuredProperties.` stripped, `.keyword` dropped) asks for. */
export interface StructuredFieldReference {
  /** The qualified name in its field form, the key the definitions are looked up by. */
  readonly normalizedName: string;
  /** For a `_versioned.<name>.<version>.<type>` name: the version and type it names. */
  readonly version?: string;
  readonly valueType?: string;
}

/** Parses a structured property field name of a request; undefined for any other field. */
export function structuredFieldReference(field: string): StructuredFieldReference | undefined {
  if (!isStructuredPropertyField(field)) return undefined;
  const rest = field.slice(STRUCTURED_PROPERTIES_PREFIX.length).replace(/\.delimited$/, '');
  if (rest === '') return undefined;
  const parts = rest.split('.');
  if (parts[0] === VERSIONED && parts.length === 4 && parts.every((p) => p !== ''))
    return { normalizedName: parts[1]!, version: parts[2]!, valueType: parts[3]! };
  return { normalizedName: normalizedPropertyName(rest) };
}

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` date as epoch milliseconds of its UTC midnight; undefined when it is no valid date. */
export function dateToEpochMillis(text: string): number | undefined {
  if (!isValidDate(text)) return undefined;
  return Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
}

/** Epoch milliseconds as the `YYYY-MM-DD` of their UTC day. */
export function epochMillisToDate(millis: number): string {
  const day = Math.floor(millis / DAY_MS) * DAY_MS;
  const iso = new Date(day).toISOString();
  // Years before 1000 or after 9999 do not occur: values outside 1000-01-01..9999-12-31 are refused.
  return iso.slice(0, 10);
}

/**
 * A facet value as the ecosystem prints it: numbers as Java doubles (`60.0`, as its aggregation
 * buckets of a double field read), dates as the `YYYY-MM-DD` they were written as; others unchanged.
 */
export function formatStructuredFacetValue(type: SearchFieldType, value: string): string {
  if (type !== 'DOUBLE' && type !== 'DATETIME') return value;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) return value;
  return type === 'DOUBLE' ? javaDouble(n) : epochMillisToDate(n);
}
