import { NUMERIC_TYPES } from '../document-fields.js';
import type { Criterion } from '../port.js';
import type { NormalizedSearch } from '../validate-search-request.js';
import type { FacetForwardIndex } from './facet-forward-index.js';
import type { IndexedEntity } from './indexed-entity.js';
import { FIELD_ID_SQL } from './keyed-values-schema.js';
import { keyedIdsWhere } from './sqlite-filter-sql.js';
import type { StatementCache } from './statement-cache.js';

type Filter = NonNullable<NormalizedSearch['filter']>;

/**
 * Whether every criterion is an exact value (EQUAL, IN) or EXISTS test on a keyed text field, possibly
 * negated: the forms the in-memory forward index answers as `vals` does.
 */
function isExactValueFilter(entity: IndexedEntity, filter: Filter): boolean {
  return filter.or.every((conjunction) =>
    conjunction.and.every((criterion) => {
      const mapping = entity.mappings.get(criterion.field);
      if (mapping === undefined || mapping.aliasOf !== undefined || !entity.keyed.has(criterion.field))
        return false;
      if (NUMERIC_TYPES.has(mapping.type)) return false;
      const { condition } = criterion;
      return condition === 'EQUAL' || condition === 'IN' || condition === 'EXISTS';
    }),
  );
}

/** The filter as a test over document ids, when it is an exact-value filter (see isExactValueFilter). */
export function forwardFilter(
  entity: IndexedEntity,
  filter: NormalizedSearch['filter'],
  forward: FacetForwardIndex,
): ((id: number) => boolean) | undefined {
  if (filter === undefined || !isExactValueFilter(entity, filter)) return undefined;
  const disjuncts = filter.or.map((conjunction) => conjunctionTest(entity, conjunction.and, forward));
  if (disjuncts.length === 0) return () => true;
  if (disjuncts.length === 1) return disjuncts[0];
  return (id) => disjuncts.some((test) => test(id));
}

function conjunctionTest(
  entity: IndexedEntity,
  criteria: readonly Criterion[],
  forward: FacetForwardIndex,
): (id: number) => boolean {
  const tests = criteria.map((criterion) => criterionTest(entity, criterion, forward));
  const [a, b] = tests;
  if (tests.length === 1) return a!;
  if (tests.length === 2) return (id) => a!(id) && b!(id);
  return (id) => tests.every((test) => test(id));
}

function criterionTest(
  entity: IndexedEntity,
  criterion: Criterion,
  forward: FacetForwardIndex,
): (id: number) => boolean {
  const test = forward.matcher(
    entity.spec.entityType,
    criterion.field,
    criterion.condition === 'EXISTS' ? undefined : criterion.values,
  );
  return criterion.negated === true ? (id) => !test(id) : test;
}

/**
 * The ids, ascending, of the type's documents (live, or removed too when `includeRemoved`) that pass an
 * exact-value filter; undefined for any other filter. A criterion on a field the forward index holds
 * (the faceted fields) is tested in memory, unless it names rare values: those are read as an id list
 * from `vals`, as is any criterion on a field not in memory (bringing one in could cost a
 * string per document, as for `urn`). Each conjunction intersects its positive lists (or, with none,
 * passes over every document), then drops the ids of its negated lists and tests the rest in memory.
 * A common value's list would cost more than that pass: a tenth of a million ids read at a million
 * documents against a pass over a million typed-array slots.
 */
export function exactFilterIds(
  queries: StatementCache,
  entity: IndexedEntity,
  filter: Filter,
  forward: FacetForwardIndex,
  includeRemoved: boolean,
): Int32Array | undefined {
  if (!isExactValueFilter(entity, filter)) return undefined;
  const type = entity.spec.entityType;
  const present = forward.present(type, includeRemoved);
  const all = (): Int32Array => forward.select(type, includeRemoved, () => true);
  // No conjunction is no condition, as filterSql reads it.
  if (filter.or.length === 0) return all();
  const rareAtMost = Math.max(1_024, forward.idSpace(type) / 16);
  const parts = filter.or.map((conjunction) => {
    const lists: Int32Array[] = [];
    const excluded: Int32Array[] = [];
    const tested: Criterion[] = [];
    for (const criterion of conjunction.and) {
      const negated = criterion.negated === true;
      const values = criterion.condition === 'EXISTS' ? undefined : criterion.values;
      if (forward.inMemory(type, criterion.field)) {
        const rare =
          !negated &&
          values !== undefined &&
          (forward.valueCount(type, criterion.field, values) ?? 0) <= rareAtMost;
        if (!rare) {
          tested.push(criterion);
          continue;
        }
      }
      const list = idsWith(queries, type, criterion.field, values);
      (negated ? excluded : lists).push(list);
    }
    const test = tested.length === 0 ? undefined : conjunctionTest(entity, tested, forward);
    let ids =
      lists.length === 0
        ? forward.select(type, includeRemoved, test ?? (() => true))
        : lists.reduce(intersectSorted).filter((id) => present(id) && (test === undefined || test(id)));
    for (const list of excluded) ids = differenceSorted(ids, list);
    return ids;
  });
  return parts.reduce(unionSorted);
}

/**
 * The ids, ascending and distinct, of the documents with any of `values` in the field (any value when
 * undefined), removed ones included: the caller keeps the present ones (FacetForwardIndex.present).
 */
function idsWith(
  queries: StatementCache,
  type: string,
  field: string,
  values: readonly string[] | undefined,
): Int32Array {
  if (values !== undefined && values.length === 0) return new Int32Array(0);
  const sql =
    values === undefined
      ? `SELECT doc FROM vals WHERE field = ${FIELD_ID_SQL}`
      : keyedIdsWhere(`x.value IN (${values.map(() => '?').join(', ')})`);
  const ids = queries
    .get(sql)
    .pluck()
    .all(type, field, ...(values ?? [])) as number[];
  // One value's ids come in order from the index; several values' need sorting and merging.
  return distinct(Int32Array.from(ids).sort());
}

function distinct(sorted: Int32Array): Int32Array {
  let n = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  return sorted.subarray(0, n);
}

/** The ids in both ascending lists. */
export function intersectSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/** The ids of the first ascending list that are not in the second. */
export function differenceSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j < b.length && b[j] === x) continue;
    out[n++] = x;
  }
  return out.subarray(0, n);
}

/** The ids in either ascending list, ascending and distinct. */
export function unionSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    const next = x <= y ? x : y;
    if (x === next) i++;
    if (y === next) j++;
    out[n++] = next;
  }
  return out.subarray(0, n);
}
