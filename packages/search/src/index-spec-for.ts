import type { EntitySpec, SearchableField, SearchFieldType } from '@catalog/model';
import {
  BROWSE_PATHS_FIELD,
  CUSTOM_PROPERTIES_FIELD,
  ENTITY_TYPE_FIELD,
  REMOVED_FIELD,
  URN_FIELD,
} from './document-fields.js';
import type { EntityIndexSpec, FieldMapping } from './port.js';
import { STRUCTURED_PROPERTY_URNS_FIELD } from './structured-property-fields.js';

interface MutableMapping {
  name: string;
  type: SearchFieldType;
  boost: number;
  autocomplete: boolean;
  filterable?: boolean;
  aliasOf?: string;
}

const QUERY_BY_DEFAULT_TYPES: ReadonlySet<SearchFieldType> = new Set([
  'TEXT',
  'TEXT_PARTIAL',
  'WORD_GRAM',
  'KEYWORD',
  'URN',
  'URN_PARTIAL',
]);

/**
 * The full-text weight of an entity's urn: its words (the urn without its `urn:li:<type>:` prefixes,
 * see fullTextOf) are searched as the ecosystem searches `urn.delimited`, at half the weight of its
 * exact urn (10) and of a name. An entity whose id appears nowhere but in its urn (a data process
 * instance run id) is found by it.
 */
export const URN_WORDS_BOOST = 5;

/** The full-text weight of an annotation: its boost (default 1) when queried by default, else 0. */
export function fullTextBoost(field: SearchableField): number {
  const queried = field.queryByDefault ?? QUERY_BY_DEFAULT_TYPES.has(field.type);
  return queried ? (field.boost ?? 1) : 0;
}

/**
 * The index shape of an entity type: one field per searchable annotation of its versioned aspects
 * (annotations sharing a field name merge: highest boost, autocomplete if any asks), the `hasX` and
 * `numX` companions, aliases (`aliasOf`), and the fixed fields `urn` (searched by its words, see
 * URN_WORDS_BOOST), `_entityType`, `removed`,
 * `customProperties`, when the entity has a browsePaths aspect, `browsePaths`, and, when it has a
 * structuredProperties aspect, `structuredPropertyUrns`. Structured property values get their fields
 * from their definitions (the definitions view), not from here. Time-series aspects have their own
 * documents (TimeseriesIndex) and add nothing here.
 */
export function indexSpecFor(entity: EntitySpec): EntityIndexSpec {
  const fields = new Map<string, MutableMapping>();
  const add = (mapping: MutableMapping): void => {
    const existing = fields.get(mapping.name);
    if (existing === undefined) {
      fields.set(mapping.name, { ...mapping });
      return;
    }
    existing.boost = Math.max(existing.boost, mapping.boost);
    existing.autocomplete ||= mapping.autocomplete;
    if (mapping.filterable === true) existing.filterable = true;
  };
  add({ name: URN_FIELD, type: 'URN', boost: URN_WORDS_BOOST, autocomplete: false });
  add({ name: ENTITY_TYPE_FIELD, type: 'KEYWORD', boost: 0, autocomplete: false });
  add({ name: REMOVED_FIELD, type: 'BOOLEAN', boost: 0, autocomplete: false });
  const aliases: MutableMapping[] = [];
  for (const aspect of entity.aspects.values()) {
    if (aspect.kind !== 'versioned') continue;
    for (const field of aspect.searchable) {
      add({
        name: field.fieldName,
        type: field.type,
        boost: fullTextBoost(field),
        autocomplete: field.enableAutocomplete === true,
        ...(field.addToFilters === true ? { filterable: true } : {}),
      });
      if (field.hasValuesFieldName !== undefined)
        add({ name: field.hasValuesFieldName, type: 'BOOLEAN', boost: 0, autocomplete: false });
      if (field.numValuesFieldName !== undefined)
        add({ name: field.numValuesFieldName, type: 'COUNT', boost: 0, autocomplete: false });
      for (const alias of field.fieldNameAliases ?? [])
        aliases.push({
          name: alias,
          type: field.type,
          boost: 0,
          autocomplete: false,
          aliasOf: field.fieldName,
        });
    }
  }
  if (entity.aspects.has('browsePaths'))
    add({ name: BROWSE_PATHS_FIELD, type: 'BROWSE_PATH', boost: 0, autocomplete: false });
  add({ name: CUSTOM_PROPERTIES_FIELD, type: 'KEYWORD', boost: 0, autocomplete: false });
  if (entity.aspects.has('structuredProperties'))
    add({ name: STRUCTURED_PROPERTY_URNS_FIELD, type: 'KEYWORD', boost: 0, autocomplete: false });
  for (const alias of aliases) if (!fields.has(alias.name)) fields.set(alias.name, alias);
  return { entityType: entity.name, fields: [...fields.values()].map(toFieldMapping) };
}

function toFieldMapping(mapping: MutableMapping): FieldMapping {
  return {
    name: mapping.name,
    type: mapping.type,
    ...(mapping.boost > 0 ? { boost: mapping.boost } : {}),
    ...(mapping.autocomplete ? { autocomplete: true } : {}),
    ...(mapping.filterable === true ? { filterable: true } : {}),
    ...(mapping.aliasOf === undefined ? {} : { aliasOf: mapping.aliasOf }),
  };
}

/** The mapping a field name stands for in `spec`: aliases resolve to their target; undefined when unknown. */
export function resolveField(spec: EntityIndexSpec, name: string): FieldMapping | undefined {
  const mapping = spec.fields.find((f) => f.name === name);
  if (mapping?.aliasOf === undefined) return mapping;
  const target = mapping.aliasOf;
  return spec.fields.find((f) => f.name === target);
}
