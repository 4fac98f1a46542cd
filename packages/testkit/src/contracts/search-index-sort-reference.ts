import type {
  EntityDocument,
  SearchHit,
  SearchIndex,
  SearchRequest,
  SearchResponse,
  SearchSortValue,
  SortCriterion,
  SortOrder,
} from '@catalog/search';

/** One sort key of the reference order: the field, its order, and how its values compare. */
export interface ReferenceKey {
  readonly field: string;
  readonly order: SortOrder;
  readonly kind: 'string' | 'number' | 'boolean';
}

/** The request's sort for reference keys. */
export function sortOf(keys: readonly ReferenceKey[]): SortCriterion[] {
  return keys.map(({ field, order }) => ({ field, order }));
}

/** `_entityName` is an alias of a different field per entity type. */
const ENTITY_NAME: Readonly<Record<string, string>> = { dataset: 'name', chart: 'title' };
/** Longer string values have no keyword form in OpenSearch, so a sort sees none. */
const KEYWORD_LIMIT = 8191;

/**
 * The contract's own statement of the sort order (independent of the adapters' code): per key, the
 * smallest value ascending and the largest descending, strings by UTF-8 bytes, missing values last in
 * both orders; then urn ascending (UTF-8 bytes).
 */
export function referenceSortValues(doc: EntityDocument, keys: readonly ReferenceKey[]): SearchSortValue[] {
  return [...keys.map((key) => keyValue(doc, key)), doc.urn];
}

export function referenceOrder(docs: readonly EntityDocument[], keys: readonly ReferenceKey[]): string[] {
  return [...docs]
    .sort((a, b) => compareReference(referenceSortValues(a, keys), referenceSortValues(b, keys), keys))
    .map((d) => d.urn);
}

/** Hit order of two sortValues arrays (keys, then urn). */
export function compareReference(
  a: readonly SearchSortValue[],
  b: readonly SearchSortValue[],
  keys: readonly ReferenceKey[],
): number {
  for (let i = 0; i <= keys.length; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const ascending =
      typeof x === 'string' && typeof y === 'string'
        ? Buffer.compare(Buffer.from(x), Buffer.from(y))
        : Number(x) - Number(y);
    if (ascending !== 0) return keys[i]?.order === 'DESCENDING' ? -ascending : ascending;
  }
  return 0;
}

function keyValue(doc: EntityDocument, key: ReferenceKey): SearchSortValue {
  const field = key.field === '_entityName' ? ENTITY_NAME[doc.entityType] : key.field;
  const raw = field === undefined ? undefined : doc.fields[field];
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const values = all.filter((v) =>
    key.kind === 'string' ? typeof v === 'string' && v.length <= KEYWORD_LIMIT : typeof v === key.kind,
  ) as (string | number | boolean)[];
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) =>
    compareReference([a], [b], [{ field: key.field, order: 'ASCENDING', kind: key.kind }]),
  );
  return (key.order === 'ASCENDING' ? sorted[0] : sorted[sorted.length - 1]) ?? null;
}

/** A keyset scroll to its end: every page's hits and totals; `between(n)` runs after page n. */
export async function scrollAll(
  index: SearchIndex,
  request: Omit<SearchRequest, 'start' | 'searchAfter'>,
  between?: (page: number, last: SearchHit) => Promise<void>,
): Promise<{ readonly hits: SearchHit[]; readonly totals: number[]; readonly pages: number }> {
  const hits: SearchHit[] = [];
  const totals: number[] = [];
  let after: SearchRequest['searchAfter'] = '';
  for (let page = 0; page < 100; page++) {
    const response: SearchResponse = await index.search({ ...request, start: 0, searchAfter: after });
    totals.push(response.total);
    const last = response.hits[response.hits.length - 1];
    if (last === undefined) return { hits, totals, pages: page };
    hits.push(...response.hits);
    if (last.sortValues === undefined) throw new Error('a keyset hit has no sortValues');
    after = last.sortValues;
    await between?.(page, last);
  }
  throw new Error('the scroll did not end within 100 pages');
}
