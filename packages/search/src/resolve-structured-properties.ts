import { ValidationError } from '@catalog/model';
import { normalizeFilter, stripKeywordSuffix } from './normalize-filter.js';
import { parseSearchInput } from './parse-search-input.js';
import type {
  Aggregation,
  Criterion,
  EntityIndexSpec,
  FieldMapping,
  Filter,
  StructuredPropertySearchDefinition,
} from './port.js';
import {
  dateToEpochMillis,
  formatStructuredFacetValue,
  normalizedPropertyName,
  STRUCTURED_PROPERTIES_PREFIX,
  structuredFieldMapping,
  structuredFieldReference,
  structuredPropertyFieldName,
  type StructuredFieldReference,
} from './structured-property-fields.js';
import type { IndexSpecLookup } from './validate-search-request.js';

/** The view's definitions whose qualified names have these field forms (`.` → `_`). */
export type DefinitionsByName = (
  normalizedNames: readonly string[],
) => Promise<readonly StructuredPropertySearchDefinition[]>;

/** The parts of a search, browse or autocomplete request that may name structured properties. */
interface RequestNames {
  readonly filter?: unknown;
  readonly facets?: readonly string[];
  readonly sort?: unknown;
  readonly input?: unknown;
}

/** A request with its structured property names resolved against the definitions view. */
export interface StructuredResolution<R> {
  /** The request, its filter in canonical form with date values as epoch milliseconds. */
  readonly request: R;
  /** A spec with the fields the request names (the document field, and the requested name as alias). */
  readonly extend: (spec: EntityIndexSpec) => EntityIndexSpec;
  /** The lookup of specs so extended. */
  readonly specs: (lookup: IndexSpecLookup) => IndexSpecLookup;
  /** The document fields resolved (no aliases), for adapters that index them apart from the spec. */
  readonly fields: readonly FieldMapping[];
  /** Facet values as the ecosystem prints them (numbers `60.0`, dates `YYYY-MM-DD`). */
  formatAggregations(aggregations: readonly Aggregation[]): Aggregation[];
}

/**
 * Resolves the `structuredProperties.<name>` fields a request names in its filter, facets, sort or
 * `field:value` input. Each must name a property of the view by qualified name (or its `_` form, or
 * the active `_versioned.<name>.<version>.<type>` path); it then filters, facets and sorts on the
 * definition's document field, in every requested entity type (types without values match nothing).
 * Throws ValidationError for an unknown property (naming it), for a soft-deleted one ("Cannot filter
 * on deleted Structured Property [urn]", as the ecosystem words it, facets included), for an older
 * version's path, and for a date filter value that is neither `YYYY-MM-DD` nor epoch milliseconds.
 * A request that names none is returned as it is, without a lookup.
 */
export async function resolveStructuredProperties<R extends RequestNames>(
  request: R,
  definitionsByName: DefinitionsByName,
): Promise<StructuredResolution<R>> {
  const filter = hasFilter(request.filter) ? normalizeFilter(request.filter) : undefined;
  const names = requestedNames(request, filter);
  if (names.size === 0)
    return {
      request,
      extend: (spec) => spec,
      specs: (lookup) => lookup,
      fields: [],
      formatAggregations: (a) => [...a],
    };

  const wanted = [...new Set([...names.values()].map((ref) => ref.normalizedName))];
  const found = await definitionsByName(wanted);
  const byName = new Map<string, StructuredPropertySearchDefinition>();
  const mappings = new Map<string, FieldMapping>();
  const aliases: FieldMapping[] = [];
  for (const [name, ref] of names) {
    const definition = choose(found, name, ref);
    byName.set(name, definition);
    const mapping = structuredFieldMapping(definition);
    mappings.set(mapping.name, mapping);
    if (name !== mapping.name) aliases.push({ ...mapping, name, aliasOf: mapping.name });
  }
  const added = [...mappings.values(), ...aliases];
  const extend = (spec: EntityIndexSpec): EntityIndexSpec => {
    const known = new Set(spec.fields.map((f) => f.name));
    return { ...spec, fields: [...spec.fields, ...added.filter((f) => !known.has(f.name))] };
  };
  return {
    request: filter === undefined ? request : { ...request, filter: withDateValues(filter, byName) },
    extend,
    specs: (lookup) => (entityType) => {
      const spec = lookup(entityType);
      return spec === undefined ? undefined : extend(spec);
    },
    fields: [...mappings.values()],
    formatAggregations: (aggregations) =>
      aggregations.map((aggregation) => {
        const definition = byName.get(aggregation.field);
        if (definition === undefined) return aggregation;
        const { type } = structuredFieldMapping(definition);
        return {
          ...aggregation,
          values: aggregation.values.map((v) => ({ ...v, value: formatStructuredFacetValue(type, v.value) })),
        };
      }),
  };
}

/**
 * The structured properties a search, browse or autocomplete request names (filter, facets, sort or
 * `field:value` input), as requested (`.keyword` dropped) with the `_` form of the qualified name they
 * refer to: what a caller checks against its own source of truth before searching.
 */
export function structuredPropertyNamesOf(
  request: RequestNames,
): readonly { readonly name: string; readonly qualifiedName: string; readonly normalizedName: string }[] {
  const filter = hasFilter(request.filter) ? normalizeFilter(request.filter) : undefined;
  return [...requestedNames(request, filter)].map(([name, ref]) => ({
    name,
    qualifiedName: name.slice(STRUCTURED_PROPERTIES_PREFIX.length),
    normalizedName: ref.normalizedName,
  }));
}

function hasFilter(filter: unknown): boolean {
  return filter !== undefined && filter !== null;
}

/** Every structured property name of the request (`.keyword` dropped), with what it refers to. */
function requestedNames(
  request: RequestNames,
  filter: Filter | undefined,
): Map<string, StructuredFieldReference> {
  const names = new Map<string, StructuredFieldReference>();
  const add = (raw: unknown): void => {
    if (typeof raw !== 'string') return;
    const name = stripKeywordSuffix(raw.trim());
    const ref = structuredFieldReference(name);
    if (ref !== undefined) names.set(name, ref);
  };
  for (const conjunction of filter?.or ?? []) for (const criterion of conjunction.and) add(criterion.field);
  for (const facet of request.facets ?? []) add(facet);
  if (Array.isArray(request.sort))
    for (const key of request.sort as unknown[])
      if (typeof key === 'object' && key !== null) add((key as { field?: unknown }).field);
  if (typeof request.input === 'string' && request.input.includes(STRUCTURED_PROPERTIES_PREFIX)) {
    const query = parseSearchInput(request.input);
    if (query.kind === 'field') add(query.field);
  }
  return names;
}

/**
 * The definition a name refers to: by its exact qualified name first, then by its `_` form (only one
 * property can have it: names differing by `.`/`_` are refused on write).
 */
function choose(
  found: readonly StructuredPropertySearchDefinition[],
  name: string,
  ref: StructuredFieldReference,
): StructuredPropertySearchDefinition {
  const rest = name.slice(STRUCTURED_PROPERTIES_PREFIX.length);
  const candidates = found.filter((d) => normalizedPropertyName(d.qualifiedName) === ref.normalizedName);
  const definition =
    candidates.find((d) => d.qualifiedName === rest) ?? candidates.find((d) => !d.removed) ?? candidates[0];
  if (definition === undefined)
    throw new ValidationError(
      `Unknown structured property field "${name}": no structured property has the qualified name ` +
        `${ref.version === undefined ? rest : ref.normalizedName}`,
    );
  if (definition.removed)
    throw new ValidationError(`Cannot filter on deleted Structured Property [${definition.urn}]`);
  if (
    ref.version !== undefined &&
    (ref.version !== definition.version || ref.valueType !== definition.valueType)
  )
    throw new ValidationError(
      `Structured property field "${name}" is not the active version of ${definition.qualifiedName}; ` +
        `its values are searched as "${structuredPropertyFieldName(definition)}"`,
    );
  return definition;
}

/** The filter with date properties' values as epoch milliseconds (numbers pass as they are). */
function withDateValues(
  filter: Filter,
  byName: ReadonlyMap<string, StructuredPropertySearchDefinition>,
): Filter {
  return {
    or: filter.or.map((conjunction) => ({
      and: conjunction.and.map((criterion): Criterion => {
        const definition = byName.get(criterion.field);
        if (definition?.valueType !== 'date') return criterion;
        return { ...criterion, values: criterion.values.map((v) => dateValue(criterion.field, v)) };
      }),
    })),
  };
}

function dateValue(field: string, value: string): string {
  const trimmed = value.trim();
  if (/^-?\d+$/.test(trimmed)) return trimmed;
  const millis = dateToEpochMillis(trimmed);
  if (millis === undefined)
    throw new ValidationError(
      `Filter on "${field}" (date): value "${value}" is not a date (YYYY-MM-DD) or epoch milliseconds`,
    );
  return String(millis);
}

/**
 * The request without its criteria, facets and sort keys on structured properties: what can be checked
 * against the static index specs alone (an interface's early check); the search index resolves the rest.
 */
export function withoutStructuredProperties<R extends RequestNames>(request: R): R {
  const keep = (field: unknown): boolean =>
    typeof field !== 'string' || structuredFieldReference(stripKeywordSuffix(field.trim())) === undefined;
  const filter = hasFilter(request.filter) ? normalizeFilter(request.filter) : undefined;
  return {
    ...request,
    ...(filter === undefined
      ? {}
      : {
          filter: { or: filter.or.map((c) => ({ and: c.and.filter((criterion) => keep(criterion.field)) })) },
        }),
    ...(request.facets === undefined ? {} : { facets: request.facets.filter(keep) }),
    ...(Array.isArray(request.sort)
      ? {
          sort: (request.sort as unknown[]).filter(
            (key) => typeof key !== 'object' || key === null || keep((key as { field?: unknown }).field),
          ),
        }
      : {}),
  };
}
