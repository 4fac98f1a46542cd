import { KEYWORD_MAX_LENGTH, utf8Length, type StructuredPropertySettings } from '@catalog/model';
import type { SearchScalar, StructuredPropertySearchDefinition } from './port.js';
import { dateToEpochMillis, structuredPropertyFieldName } from './structured-property-fields.js';

/** What the indexer needs to turn an entity's structuredProperties assignments into document fields. */
export interface StructuredPropertyIndexing {
  /** The definitions of the properties the assignments name (the definitions view); others index nothing. */
  readonly definitions: ReadonlyMap<string, StructuredPropertySearchDefinition>;
  /**
   * When the entity's structuredProperties aspect was written (its stored audit time): the assignment
   * time of assignments that carry no created/lastModified stamp of their own.
   */
  readonly writtenAt: number;
  readonly limits: Pick<
    StructuredPropertySettings,
    'keywordMaxLength' | 'dropOversizedKeywordValuesFromIndex'
  >;
  /** Told of every value left out of the index for its size (the caller logs a warning). */
  readonly onOversized?: (value: OversizedValue) => void;
}

export interface OversizedValue {
  readonly propertyUrn: string;
  readonly bytes: number;
  readonly limit: number;
}

/** The document fields of one entity's structured properties. */
export interface StructuredPropertyDocumentFields {
  /** Every assigned property urn (STRUCTURED_PROPERTY_URNS_FIELD), defined or not. */
  readonly propertyUrns: readonly string[];
  /** Typed values by document field (structuredPropertyFieldName); fields without values are absent. */
  readonly fields: ReadonlyMap<string, readonly SearchScalar[]>;
}

/**
 * The search fields of a structuredProperties aspect value: each assignment's values under its
 * definition's field, typed by the definition's valueType (numbers as doubles, dates as epoch millis,
 * the rest as strings; empty strings and values of the wrong kind are skipped, as the ecosystem's
 * document transformer skips them). Left out as well:
 * - assignments of properties without a definition (they are indexed when it arrives);
 * - assignments made before the definition's current version (older versions leave search);
 * - string-backed values over the byte limit: STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH when
 *   STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX is set, and always Lucene's term limit
 *   (32766 bytes), which no index can hold: such a value would fail its document's write forever.
 */
export function structuredPropertyDocumentFields(
  aspect: Readonly<Record<string, unknown>>,
  indexing: StructuredPropertyIndexing | undefined,
): StructuredPropertyDocumentFields {
  const propertyUrns: string[] = [];
  const fields = new Map<string, SearchScalar[]>();
  const assignments = Array.isArray(aspect['properties']) ? (aspect['properties'] as unknown[]) : [];
  for (const raw of assignments) {
    if (!isRecord(raw) || typeof raw['propertyUrn'] !== 'string') continue;
    const propertyUrn = raw['propertyUrn'];
    if (!propertyUrns.includes(propertyUrn)) propertyUrns.push(propertyUrn);
    const definition = indexing?.definitions.get(propertyUrn);
    if (indexing === undefined || definition === undefined) continue;
    if (!isCurrent(raw, definition, indexing.writtenAt)) continue;
    const values = Array.isArray(raw['values']) ? (raw['values'] as unknown[]) : [];
    const field = structuredPropertyFieldName(definition);
    const collected = fields.get(field) ?? [];
    for (const value of values) {
      const converted = convert(definition, value, indexing, propertyUrn);
      if (converted !== undefined && !collected.includes(converted)) collected.push(converted);
    }
    if (collected.length > 0) fields.set(field, collected);
  }
  return { propertyUrns, fields };
}

/** Whether an assignment belongs to the definition's current version (any, when it has none). */
function isCurrent(
  assignment: Readonly<Record<string, unknown>>,
  definition: StructuredPropertySearchDefinition,
  writtenAt: number,
): boolean {
  if (definition.version === undefined || definition.versionSince === undefined) return true;
  const assignedAt = stampTime(assignment['lastModified']) ?? stampTime(assignment['created']) ?? writtenAt;
  return assignedAt >= definition.versionSince;
}

function stampTime(stamp: unknown): number | undefined {
  return isRecord(stamp) && typeof stamp['time'] === 'number' ? stamp['time'] : undefined;
}

function convert(
  definition: StructuredPropertySearchDefinition,
  value: unknown,
  indexing: StructuredPropertyIndexing,
  propertyUrn: string,
): SearchScalar | undefined {
  const primitive = primitiveOf(value);
  if (primitive === undefined) return undefined;
  switch (definition.valueType) {
    case 'unknown':
      return undefined;
    case 'number': {
      if (typeof primitive === 'number') return Number.isFinite(primitive) ? primitive : undefined;
      const n = Number(primitive.trim());
      return primitive.trim() !== '' && Number.isFinite(n) ? n : undefined;
    }
    default: {
      if (typeof primitive !== 'string' || primitive === '') return undefined;
      const limit = byteLimit(indexing);
      const bytes = utf8Length(primitive);
      if (bytes > limit) {
        indexing.onOversized?.({ propertyUrn, bytes, limit });
        return undefined;
      }
      return definition.valueType === 'date' ? dateToEpochMillis(primitive) : primitive;
    }
  }
}

function byteLimit(indexing: StructuredPropertyIndexing): number {
  const { keywordMaxLength, dropOversizedKeywordValuesFromIndex } = indexing.limits;
  return dropOversizedKeywordValuesFromIndex
    ? Math.min(keywordMaxLength, KEYWORD_MAX_LENGTH)
    : KEYWORD_MAX_LENGTH;
}

/** A PrimitivePropertyValue: `{string: ..}`, `{double: ..}`, or the bare value. */
function primitiveOf(value: unknown): string | number | undefined {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (!isRecord(value)) return undefined;
  if (typeof value['string'] === 'string') return value['string'];
  if (typeof value['double'] === 'number') return value['double'];
  return undefined;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
