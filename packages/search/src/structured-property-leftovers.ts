import type {
  LeftoverStructuredProperty,
  StructuredPropertyMappingCleanup,
  StructuredPropertySearchDefinition,
} from './port.js';
import { compareCodePoints as compare } from './sort-values.js';
import {
  normalizedPropertyName,
  propertyNameOfField,
  structuredPropertyFieldName,
} from './structured-property-fields.js';

/** A retired (hard-deleted) property as the adapters keep it (SearchIndex.deleteStructuredProperties). */
export interface RetiredStructuredProperty {
  readonly urn: string;
  readonly qualifiedName: string;
  readonly normalizedName: string;
  /** When it was retired (ms since the epoch). */
  readonly retiredAt: number;
  /** The document fields it had mapped when retired: its definition's field. */
  readonly fields: readonly string[];
}

/**
 * One entity index's structured property field mappings that no definition of the view claims, each
 * with the number of documents of that index holding a value in it: what the cleanup may remove.
 */
export interface UnclaimedStructuredFields {
  readonly entityType: string;
  readonly counts: ReadonlyMap<string, number>;
}

/** The retired record of a definition leaving the view at `retiredAt`. */
export function retiredRecordOf(
  definition: StructuredPropertySearchDefinition,
  retiredAt: number,
): RetiredStructuredProperty {
  return {
    urn: definition.urn,
    qualifiedName: definition.qualifiedName,
    normalizedName: normalizedPropertyName(definition.qualifiedName),
    retiredAt,
    fields: [structuredPropertyFieldName(definition)],
  };
}

/** The document fields the view's definitions (active and soft-deleted) claim: their current fields. */
export function claimedFields(
  definitions: readonly StructuredPropertySearchDefinition[],
): ReadonlySet<string> {
  return new Set(definitions.map(structuredPropertyFieldName));
}

/**
 * The leftovers of retired properties, by urn: in each entity index, the unclaimed fields of their name
 * (the plain and every `_versioned` field of it, and those the record names) with their value counts.
 * A field that a definition of the view claims is not a leftover (it stays mapped for that definition).
 */
export function leftoversOf(
  retired: readonly RetiredStructuredProperty[],
  indices: readonly UnclaimedStructuredFields[],
): LeftoverStructuredProperty[] {
  const byType = [...indices].sort((a, b) => compare(a.entityType, b.entityType));
  return [...retired]
    .sort((a, b) => compare(a.urn, b.urn))
    .map((record) => {
      const own = new Set(record.fields);
      const mappedFields: Record<string, Record<string, number>> = {};
      for (const index of byType) {
        const fields = [...index.counts.keys()]
          .filter((field) => own.has(field) || propertyNameOfField(field) === record.normalizedName)
          .sort(compare);
        if (fields.length === 0) continue;
        mappedFields[index.entityType] = Object.fromEntries(
          fields.map((field) => [field, index.counts.get(field) ?? 0]),
        );
      }
      return {
        urn: record.urn,
        qualifiedName: record.qualifiedName,
        normalizedName: record.normalizedName,
        retiredAt: record.retiredAt,
        mappedFields,
      };
    });
}

/**
 * The (entity type, field) keys (fieldKey) of the retired properties named in `keep`: their fields stay
 * mapped whatever the documents hold (cleanupStructuredPropertyMappings' `keep`).
 */
export function keptFieldsOf(
  retired: readonly RetiredStructuredProperty[],
  keep: ReadonlySet<string>,
  indices: readonly UnclaimedStructuredFields[],
): ReadonlySet<string> {
  const kept = new Set<string>();
  for (const leftover of leftoversOf(
    retired.filter((r) => keep.has(r.urn)),
    indices,
  )) {
    for (const [entityType, fields] of Object.entries(leftover.mappedFields))
      for (const field of Object.keys(fields)) kept.add(fieldKey(entityType, field));
  }
  return kept;
}

/** The key of a field in one entity index. */
function fieldKey(entityType: string, field: string): string {
  return `${entityType}\u0000${field}`;
}

/** The unclaimed fields of an entity index that no document holds a value in and none kept, sorted. */
export function removableFields(
  index: UnclaimedStructuredFields,
  kept: ReadonlySet<string> = new Set(),
): string[] {
  return [...index.counts]
    .filter(([field, count]) => count === 0 && !kept.has(fieldKey(index.entityType, field)))
    .map(([field]) => field)
    .sort(compare);
}

/**
 * The outcome of a cleanup from the leftovers after it: those leaving no mapping (and not kept) are
 * forgotten, the others kept.
 */
export function cleanupOutcome(
  removedFields: Readonly<Record<string, readonly string[]>>,
  leftovers: readonly LeftoverStructuredProperty[],
  keep: ReadonlySet<string>,
): StructuredPropertyMappingCleanup {
  const stays = (l: LeftoverStructuredProperty) => leavesMappings(l) || keep.has(l.urn);
  return {
    cleanedEntityTypes: Object.keys(removedFields).sort(compare),
    removedFields,
    forgotten: leftovers.filter((l) => !stays(l)).map((l) => l.urn),
    kept: leftovers.filter(stays),
  };
}

/** Whether a leftover still leaves any mapping. */
function leavesMappings(leftover: LeftoverStructuredProperty): boolean {
  return Object.keys(leftover.mappedFields).length > 0;
}
