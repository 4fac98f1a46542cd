import type { Types } from '@opensearch-project/opensearch';
import type { SearchSortValue } from '../port.js';
import { isStructuredPropertyField } from '../structured-property-fields.js';
import type { NormalizedSearch } from '../validate-search-request.js';
import type { NormalizedSort } from '../validate-sort.js';
import type { ResolvedSpec } from './entity-specs.js';
import { sortAliasPath, URN_PATH } from './field-paths.js';
import type { PathsLookup } from './filter-query.js';
import { UnexpectedResponseError } from './narrow.js';

type Sort = Types.Common.SortCombinations;

/**
 * The sort of a search (see SearchRequest.sort): each key on its sort alias, or, when an index predates
 * those, on the field's exact path in the first index that has it. Numbers (dates too) sort as doubles,
 * so indices mapping one field as long in one and date or double in another still merge. Keyset
 * searches end with the urn alone; others with score, then urn.
 */
export function sortOf(
  search: NormalizedSearch,
  indices: readonly ResolvedSpec[],
  lookup: PathsLookup,
): Sort[] {
  const aliased = indices.every((spec) => spec.sortAliases);
  const keys = search.sort.map((key): Sort => {
    // Structured property fields have no sort alias (they are mapped apart from the spec).
    const path =
      aliased && !isStructuredPropertyField(key.field)
        ? sortAliasPath(key.name)
        : (lookup(key.name)[0]?.exact ?? key.name);
    const order = key.order === 'ASCENDING' ? 'asc' : 'desc';
    const typed =
      key.kind === 'number'
        ? { unmapped_type: 'double' as const, numeric_type: 'double' as const }
        : { unmapped_type: key.kind === 'boolean' ? ('boolean' as const) : ('keyword' as const) };
    return { [path]: { order, missing: '_last', ...typed } };
  });
  const urn: Sort = { [URN_PATH]: { order: 'asc' } };
  return search.after === undefined ? [...keys, { _score: { order: 'desc' } }, urn] : [...keys, urn];
}

/** The `search_after` of a keyset page after the first: the position as OpenSearch's sort values. */
export function searchAfterOf(search: NormalizedSearch): Types.Common.SortResults | undefined {
  if (search.after === undefined || search.after === null) return undefined;
  const { values, urn } = search.after;
  const raw = search.sort.map((key, i) => rawSortValue(values[i] ?? null, key));
  // The client's types leave out null, which a keyword sort takes for a missing value.
  return [...raw, urn] as Types.Common.SortResults;
}

/** A hit's SearchHit.sortValues from its OpenSearch `sort` array (keyset searches). */
export function sortValuesOf(raw: unknown, search: NormalizedSearch): SearchSortValue[] {
  if (!Array.isArray(raw) || raw.length !== search.sort.length + 1)
    throw new UnexpectedResponseError('hit sort values do not match the sort', raw);
  const values = search.sort.map((key, i) => canonicalSortValue(raw[i], key));
  const urn: unknown = raw[search.sort.length];
  if (typeof urn !== 'string') throw new UnexpectedResponseError('hit sort ends without a urn', raw);
  return [...values, urn];
}

/**
 * OpenSearch's sort value for one key: a missing value sorts last as +/-Infinity (numbers), as the
 * largest or smallest int (booleans, which sort as 0 and 1) or as null (strings).
 */
function rawSortValue(value: SearchSortValue, key: NormalizedSort): string | number | null {
  const ascending = key.order === 'ASCENDING';
  switch (key.kind) {
    case 'number':
      return typeof value === 'number' ? value : ascending ? 'Infinity' : '-Infinity';
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 1 : 0) : ascending ? 2_147_483_647 : -2_147_483_648;
    case 'string':
      return typeof value === 'string' ? value : null;
  }
}

function canonicalSortValue(raw: unknown, key: NormalizedSort): SearchSortValue {
  switch (key.kind) {
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (raw === 'Infinity' || raw === '-Infinity' || raw === null) return null;
      break;
    case 'boolean':
      if (raw === 0 || raw === 1) return raw === 1;
      if (typeof raw === 'number' || raw === null) return null;
      break;
    case 'string':
      if (typeof raw === 'string' || raw === null) return raw;
      break;
  }
  throw new UnexpectedResponseError(`sort value of a ${key.kind} field "${key.name}"`, raw);
}
