import type { SearchFieldType } from '@catalog/model';

/** Fields every entity document carries, whatever its aspects. */
export const URN_FIELD = 'urn';
/** The entity type, a KEYWORD: lets one aggregation count hits per entity type. */
export const ENTITY_TYPE_FIELD = '_entityType';
/** Status.removed; false when the entity has no status aspect. */
export const REMOVED_FIELD = 'removed';
export const BROWSE_PATHS_FIELD = 'browsePaths';
/** The document's display name, which browse results list an entity under. */
export const NAME_FIELD = 'name';
/** Map-valued properties, indexed as `key=value` strings. */
export const CUSTOM_PROPERTIES_FIELD = 'customProperties';
/** The alias the ecosystem gives an entity's display-name field. */
export const ENTITY_NAME_ALIAS = '_entityName';

export const NUMERIC_TYPES: ReadonlySet<SearchFieldType> = new Set(['COUNT', 'DATETIME', 'DOUBLE']);

/** Field types whose values are strings (compared as text by filters). */
export function isTextualType(type: SearchFieldType): boolean {
  return !NUMERIC_TYPES.has(type) && type !== 'BOOLEAN';
}
