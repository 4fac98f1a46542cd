import { ValidationError } from '@catalog/model';
import { BROWSE_PATHS_FIELD, REMOVED_FIELD } from './document-fields.js';
import { fieldExpressionFilter } from './field-expression-filter.js';
import { normalizeFilter, stripKeywordSuffix } from './normalize-filter.js';
import { parseSearchInput, type SearchQuery } from './parse-search-input.js';
import type {
  AutocompleteRequest,
  BrowseRequest,
  EntityIndexSpec,
  Filter,
  SearchRequest,
  SearchSlice,
} from './port.js';
import { filterMentions, requireField, validateFilter } from './validate-filter.js';
import { validateSlice } from './validate-slice.js';
import {
  validateSearchAfter,
  validateSort,
  type KeysetPosition,
  type NormalizedSort,
} from './validate-sort.js';

/**
 * The largest page a search returns, and the bound on `start + count`: 10,000, the result window
 * OpenSearch serves by default (`index.max_result_window`); deeper paging needs a scroll.
 */
export const MAX_PAGE_SIZE = 10_000;
/**
 * The longest search text (`input`, an autocomplete `query`), in characters. A search box or an urn
 * fits many times over; longer text is refused with this limit named rather than sent to an engine that
 * would need a clause per word and field.
 */
export const MAX_SEARCH_INPUT_LENGTH = 1_024;
/** Facet values returned per field when the request gives no maxAggValues. */
export const DEFAULT_MAX_AGG_VALUES = 20;

/** Looks up the index spec of an entity type; undefined when it has none. */
export type IndexSpecLookup = (entityType: string) => EntityIndexSpec | undefined;

/** A search request checked against the index specs, every field name in canonical form. */
export interface NormalizedSearch {
  readonly specs: readonly EntityIndexSpec[];
  /** The parsed input; a `field` query names the canonical field. */
  readonly query: SearchQuery;
  /** Canonical filter; undefined when it has no conjunction (matches everything). */
  readonly filter: Filter | undefined;
  readonly start: number;
  readonly count: number;
  /** `name` as requested (`.keyword` dropped) for the response, `field` canonical. */
  readonly facets: readonly { readonly name: string; readonly field: string }[];
  readonly maxAggValues: number;
  /**
   * Keyset paging (SearchRequest.searchAfter), ordered by the sort keys then urn, without score:
   * undefined when not asked, null for the first page, else the position to continue after.
   */
  readonly after?: KeysetPosition | null;
  /** Only this part of the match set (absent: all of it; see SearchRequest.slice and sliceOfUrn). */
  readonly slice?: SearchSlice;
  /** True when asked, or when the filter itself has a criterion on `removed`. */
  readonly includeRemoved: boolean;
  readonly sort: readonly NormalizedSort[];
}

/** Checks a search request (see validateFilter for filters); throws ValidationError naming the problem. */
export function validateSearchRequest(specs: IndexSpecLookup, request: SearchRequest): NormalizedSearch {
  if (!Array.isArray(request.entityTypes) || request.entityTypes.length === 0)
    throw new ValidationError('Search needs at least one entity type');
  const resolved = [...new Set(request.entityTypes)].map((t) => requireSpec(specs, t));
  checkPage(request.start, request.count, 'count');
  const input = checkInputLength(request.input, 'Search input');
  // `(a:"x" OR b:"y")`-style inputs are exact-match filters on those fields, ANDed with the filter.
  const expression = fieldExpressionFilter(input);
  const query = expression === undefined ? parseSearchInput(input) : ({ kind: 'all' } as const);
  const canonicalQuery: SearchQuery =
    query.kind === 'field' ? { ...query, field: requireField(resolved, query.field, 'search').name } : query;
  const filter = canonicalFilter(
    resolved,
    expression === undefined ? request.filter : bothFilters(normalizeFilter(request.filter), expression),
  );
  const facets = (request.facets ?? []).map((facet) => {
    const name = stripKeywordSuffix(facet);
    return { name, field: requireField(resolved, name, 'facet').name };
  });
  const maxAggValues = request.maxAggValues ?? DEFAULT_MAX_AGG_VALUES;
  if (!Number.isInteger(maxAggValues) || maxAggValues < 1 || maxAggValues > MAX_PAGE_SIZE)
    throw new ValidationError(`maxAggValues must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  const sort = validateSort(resolved, request.sort);
  const after = validateSearchAfter(request.searchAfter, sort, request.start);
  const slice = validateSlice(request.slice);
  return {
    ...(after === undefined ? {} : { after }),
    ...(slice === undefined ? {} : { slice }),
    specs: resolved,
    query: canonicalQuery,
    filter,
    start: request.start,
    count: request.count,
    facets,
    maxAggValues,
    includeRemoved: request.includeRemoved === true || filterMentions(filter, REMOVED_FIELD),
    sort,
  };
}

/** A browse request checked against the spec: known entity with browse paths, canonical path and filter. */
export function validateBrowseRequest(
  specs: IndexSpecLookup,
  request: BrowseRequest,
): { readonly spec: EntityIndexSpec; readonly path: string; readonly filter: Filter | undefined } {
  const spec = requireSpec(specs, request.entityType);
  if (!spec.fields.some((f) => f.name === BROWSE_PATHS_FIELD))
    throw new ValidationError(`Entity type ${spec.entityType} has no browse paths`);
  checkPage(request.start, request.limit, 'limit');
  if (typeof request.path !== 'string') throw new ValidationError('Browse path must be a string');
  const segments = request.path.split('/').filter((s) => s !== '');
  return {
    spec,
    path: segments.length === 0 ? '' : `/${segments.join('/')}`,
    filter: canonicalFilter([spec], request.filter),
  };
}

/** An autocomplete request checked against the spec: the fields to suggest from, canonical filter. */
export function validateAutocompleteRequest(
  specs: IndexSpecLookup,
  request: AutocompleteRequest,
): {
  readonly spec: EntityIndexSpec;
  readonly fields: readonly string[];
  readonly filter: Filter | undefined;
} {
  const spec = requireSpec(specs, request.entityType);
  if (!Number.isInteger(request.limit) || request.limit < 0 || request.limit > MAX_PAGE_SIZE)
    throw new ValidationError(`Autocomplete limit must be an integer from 0 to ${MAX_PAGE_SIZE}`);
  if (typeof request.query !== 'string') throw new ValidationError('Autocomplete query must be a string');
  checkInputLength(request.query, 'Autocomplete query');
  const fields =
    request.field === undefined || request.field === ''
      ? spec.fields.filter((f) => f.autocomplete === true && f.aliasOf === undefined).map((f) => f.name)
      : [requireField([spec], stripKeywordSuffix(request.field), 'autocomplete').name];
  return { spec, fields, filter: canonicalFilter([spec], request.filter) };
}

function checkInputLength(input: unknown, what: string): string {
  if (typeof input !== 'string') return '';
  if (input.length > MAX_SEARCH_INPUT_LENGTH)
    throw new ValidationError(
      `${what} is ${input.length} characters long; it may be at most ${MAX_SEARCH_INPUT_LENGTH} characters`,
    );
  return input;
}

function requireSpec(specs: IndexSpecLookup, entityType: string): EntityIndexSpec {
  const spec = typeof entityType === 'string' ? specs(entityType) : undefined;
  if (spec === undefined) throw new ValidationError(`Unknown entity type: ${String(entityType)}`);
  return spec;
}

/** Both filters' conjunctions combined (an empty filter matches everything). */
function bothFilters(a: Filter, b: Filter): Filter {
  if (a.or.length === 0) return b;
  return { or: a.or.flatMap((x) => b.or.map((y) => ({ and: [...x.and, ...y.and] }))) };
}

function canonicalFilter(specs: readonly EntityIndexSpec[], raw: unknown): Filter | undefined {
  const filter = validateFilter(specs, raw);
  return filter.or.length === 0 ? undefined : filter;
}

function checkPage(start: number, count: number, countName: string): void {
  if (!Number.isInteger(start) || start < 0)
    throw new ValidationError(`start must be a non-negative integer`);
  if (!Number.isInteger(count) || count < 0)
    throw new ValidationError(`${countName} must be a non-negative integer`);
  if (count > MAX_PAGE_SIZE)
    throw new ValidationError(`${countName} ${count} is above the maximum page size ${MAX_PAGE_SIZE}`);
  if (start + count > MAX_PAGE_SIZE)
    throw new ValidationError(
      `start + ${countName} must not exceed ${MAX_PAGE_SIZE}; page deeper with a scroll`,
    );
}
