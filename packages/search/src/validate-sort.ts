import { ValidationError, type SearchFieldType } from '@catalog/model';
import { resolveField } from './index-spec-for.js';
import { stripKeywordSuffix } from './normalize-filter.js';
import type { EntityIndexSpec, SearchSortValue, SortOrder } from './port.js';
import { sortKindOf, type SortKind } from './sort-values.js';
import { requireField } from './validate-filter.js';

/** One checked sort key. */
export interface NormalizedSort {
  /** The canonical field in the first entity type that knows the name. */
  readonly field: string;
  /** The name as requested (`.keyword` dropped): each entity type resolves it itself (aliases). */
  readonly name: string;
  readonly type: SearchFieldType;
  /** The same in every requested entity type that has the field. */
  readonly kind: SortKind;
  readonly order: SortOrder;
}

/** Where a keyset page starts: strictly after the hit with these sort values and this urn. */
export interface KeysetPosition {
  /** One per sort key, of the key's kind or null. */
  readonly values: readonly SearchSortValue[];
  readonly urn: string;
}

/**
 * Checks the sort keys against the specs: known fields, a known order, and one kind (string, number,
 * boolean) across the entity types that have the field, else OpenSearch could not compare the hits
 * of two indices. Throws ValidationError naming the field.
 */
export function validateSort(specs: readonly EntityIndexSpec[], raw: unknown): NormalizedSort[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ValidationError('sort must be a list of {field, order}');
  return (raw as unknown[]).map((criterion, i) => {
    const { field, order } = (criterion ?? {}) as { field?: unknown; order?: unknown };
    if (typeof field !== 'string' || field.trim() === '')
      throw new ValidationError(`sort[${i}] needs a field name`);
    if (order !== 'ASCENDING' && order !== 'DESCENDING')
      throw new ValidationError(`Sort order must be ASCENDING or DESCENDING, got ${String(order)}`);
    const name = stripKeywordSuffix(field.trim());
    const { name: canonical, mapping } = requireField(specs, name, 'sort');
    const kind = sortKindOf(mapping.type);
    const first = specs.find((spec) => resolveField(spec, name) !== undefined)?.entityType;
    for (const spec of specs) {
      const other = resolveField(spec, name);
      if (other !== undefined && sortKindOf(other.type) !== kind)
        throw new ValidationError(
          `Sort field "${name}" cannot be sorted across these entity types: it is ${mapping.type} in ` +
            `${first ?? '?'} but ${other.type} in ${spec.entityType}`,
        );
    }
    return { field: canonical, name, type: mapping.type, kind, order };
  });
}

/**
 * Checks SearchRequest.searchAfter against the sort: undefined (no keyset paging), null (first page)
 * or the position to continue after. Throws ValidationError naming the problem.
 */
export function validateSearchAfter(
  raw: unknown,
  sort: readonly NormalizedSort[],
  start: number,
): KeysetPosition | null | undefined {
  if (raw === undefined) return undefined;
  if (start !== 0) throw new ValidationError('searchAfter pages from start 0');
  if (raw === '') return null;
  if (typeof raw === 'string') {
    if (sort.length > 0)
      throw new ValidationError('searchAfter with a sort takes the sortValues of the last hit, not a urn');
    return { values: [], urn: raw };
  }
  if (!Array.isArray(raw))
    throw new ValidationError('searchAfter must be the sortValues of the last hit, a urn, or empty');
  const values = raw as unknown[];
  if (values.length !== sort.length + 1)
    throw new ValidationError(
      `searchAfter must have ${sort.length + 1} values (one per sort key, then the urn), got ${values.length}`,
    );
  const urn = values[sort.length];
  if (typeof urn !== 'string' || urn === '')
    throw new ValidationError('searchAfter must end with the urn of the last hit');
  return {
    values: sort.map((key, i) => checkValue(values[i], key, i)),
    urn,
  };
}

function checkValue(value: unknown, key: NormalizedSort, i: number): SearchSortValue {
  if (value === null) return null;
  const fits =
    key.kind === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === key.kind;
  if (!fits)
    throw new ValidationError(
      `searchAfter[${i}] must be a ${key.kind} or null for sort field "${key.name}", got ${JSON.stringify(value)}`,
    );
  return value as SearchSortValue;
}
