import { entityRegistry, parseUrn, type EntitySpec, type SearchFieldType } from '@catalog/model';
import { defaultBrowsePath, normalizeBrowsePath } from './default-browse-path.js';
import {
  BROWSE_PATHS_FIELD,
  CUSTOM_PROPERTIES_FIELD,
  ENTITY_TYPE_FIELD,
  REMOVED_FIELD,
  URN_FIELD,
} from './document-fields.js';
import type { EntityDocument, SearchScalar } from './port.js';
import { STRUCTURED_PROPERTY_URNS_FIELD } from './structured-property-fields.js';
import {
  structuredPropertyDocumentFields,
  type StructuredPropertyIndexing,
} from './structured-property-values.js';
import { valuesAtPath } from './values-at-path.js';

/** What a document needs besides the entity's aspects. */
export interface DocumentContext {
  /**
   * Definitions and limits for the entity's structured property values; without it, only their
   * property urns are indexed (STRUCTURED_PROPERTY_URNS_FIELD).
   */
  readonly structuredProperties?: StructuredPropertyIndexing;
}

const STRUCTURED_PROPERTIES_ASPECT = 'structuredProperties';

/**
 * The search document of an entity from its current aspect values (by aspect name). Every annotated
 * path is walked and its values converted by field type; maps become `key=value` strings. Fields with
 * no value are left out; `hasX` is always set (false when empty) and `numX` is the value count.
 * Always present: `urn`, `_entityType`, `removed` (Status.removed, false when absent). `browsePaths`
 * comes from the browsePaths aspect or, when the entity has that aspect type but no value, from the
 * URN (see defaultBrowsePath). The key aspect is derived from the URN when it is not among `aspects`.
 * A field that would hold one value from a non-array path is a scalar; otherwise an array.
 * Structured property values become typed fields named from their definitions (see
 * structuredPropertyDocumentFields), always arrays, with the assigned property urns beside them.
 * Restricted aspects (`AspectSpec.restricted`) contribute nothing.
 */
export function buildEntityDocument(
  entity: EntitySpec,
  urn: string,
  aspects: ReadonlyMap<string, Record<string, unknown>>,
  context: DocumentContext = {},
): EntityDocument {
  const collected = new Map<string, { values: SearchScalar[]; many: boolean }>();
  const collect = (name: string, values: readonly SearchScalar[], many: boolean): void => {
    const entry = collected.get(name) ?? { values: [], many: false };
    for (const v of values) if (!entry.values.includes(v)) entry.values.push(v);
    entry.many ||= many;
    collected.set(name, entry);
  };
  const counts = new Map<string, number>();
  const flags = new Map<string, boolean>();

  for (const aspect of entity.aspects.values()) {
    // A restricted aspect (credentials, secret values, invite tokens, connection details) is never
    // copied into a search document, whatever its schema marks searchable: a document's fields come
    // back in hits, facets and matched fields, which no read policy strips.
    if (aspect.kind !== 'versioned' || aspect.restricted || aspect.searchable.length === 0) continue;
    const value = aspects.get(aspect.name) ?? (aspect.isKey ? keyAspectOf(urn) : undefined);
    for (const field of aspect.searchable) {
      const raw = value === undefined ? [] : valuesAtPath(value, field.path);
      const converted =
        field.type === 'BROWSE_PATH' && raw.some(isPathEntry)
          ? pathOfEntries(raw)
          : raw.flatMap((item) => convert(field.type, item));
      const many = field.path.includes('*') || raw.length > 1 || converted.length > 1;
      if (converted.length > 0) collect(field.fieldName, converted, many);
      if (field.hasValuesFieldName !== undefined)
        flags.set(
          field.hasValuesFieldName,
          (flags.get(field.hasValuesFieldName) ?? false) || converted.length > 0,
        );
      if (field.numValuesFieldName !== undefined)
        counts.set(field.numValuesFieldName, (counts.get(field.numValuesFieldName) ?? 0) + converted.length);
    }
  }

  const assignments = entity.aspects.has(STRUCTURED_PROPERTIES_ASPECT)
    ? aspects.get(STRUCTURED_PROPERTIES_ASPECT)
    : undefined;
  if (assignments !== undefined) {
    const structured = structuredPropertyDocumentFields(assignments, context.structuredProperties);
    if (structured.propertyUrns.length > 0)
      collect(STRUCTURED_PROPERTY_URNS_FIELD, structured.propertyUrns, true);
    for (const [name, values] of structured.fields) collect(name, values, true);
  }

  if (entity.aspects.has('browsePaths') && !collected.has(BROWSE_PATHS_FIELD)) {
    const path = defaultBrowsePath(urn);
    if (path !== undefined) collect(BROWSE_PATHS_FIELD, [path], true);
  }

  const fields: Record<string, SearchScalar | readonly SearchScalar[]> = {};
  for (const [name, { values, many }] of collected)
    fields[name] = many ? values : (values[0] as SearchScalar);
  for (const [name, flag] of flags) fields[name] = flag;
  for (const [name, count] of counts) fields[name] = count;
  const removed = aspects.get('status')?.['removed'];
  fields[REMOVED_FIELD] = removed === true;
  fields[URN_FIELD] = urn;
  fields[ENTITY_TYPE_FIELD] = entity.name;
  if (fields[CUSTOM_PROPERTIES_FIELD] !== undefined && !Array.isArray(fields[CUSTOM_PROPERTIES_FIELD]))
    fields[CUSTOM_PROPERTIES_FIELD] = [fields[CUSTOM_PROPERTIES_FIELD] as SearchScalar];
  return { urn, entityType: entity.name, fields };
}

function keyAspectOf(urn: string): Record<string, unknown> | undefined {
  try {
    return entityRegistry.keyAspectFromUrn(parseUrn(urn)).value;
  } catch {
    return undefined;
  }
}

/** One raw value as the index holds it; maps give `key=value` strings, unusable values give nothing. */
function convert(type: SearchFieldType, value: unknown): SearchScalar[] {
  if (value === null || value === undefined) return [];
  switch (type) {
    case 'BOOLEAN':
      if (typeof value === 'boolean') return [value];
      if (value === 'true' || value === 'false') return [value === 'true'];
      return [];
    case 'COUNT':
    case 'DATETIME':
    case 'DOUBLE': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
      return Number.isFinite(n) && (typeof value !== 'string' || value.trim() !== '') ? [n] : [];
    }
    case 'BROWSE_PATH':
      return browsePathOf(value);
    default:
      return textValuesOf(value);
  }
}

function textValuesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    // A map indexes as `key=value` entries; a map of arrays (MAP_ARRAY) as one entry per element.
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      (Array.isArray(v) ? (v as unknown[]) : [v])
        .filter((item) => item !== null && item !== undefined && typeof item !== 'object')
        .map((item) => `${k}=${String(item)}`),
    );
  }
  return [];
}

function browsePathOf(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const path = normalizeBrowsePath(value);
  return path === '' ? [] : [path];
}

/** browsePathsV2 holds one path as `{id, urn?}` entries: they join into one slash-delimited path. */
function isPathEntry(value: unknown): value is { id: string } {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}

function pathOfEntries(entries: readonly unknown[]): string[] {
  return browsePathOf(
    entries
      .filter(isPathEntry)
      .map((e) => e.id)
      .join('/'),
  );
}
