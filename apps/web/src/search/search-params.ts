/**
 * The search page's state as it stands in the URL: `q`, `page`, `sort`, and one parameter per facet
 * field whose values are filters (repeated for several values): `/search?q=orders&platform=hive&tags=pii`.
 * Values are short where the facet's urns have one form (a platform's name, a tag's id), else as given.
 */
export interface SearchParams {
  readonly q: string;
  readonly page: number;
  readonly sort: SortKey;
  /** Facet field → the values chosen (values of one field OR, fields AND). */
  readonly filters: Readonly<Record<string, readonly string[]>>;
}

export const SORT_KEYS = ['relevance', 'name-asc', 'name-desc'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

const RESERVED = new Set(['q', 'page', 'sort']);

/** Facets whose values are urns of one entity type: the URL holds the id, GraphQL gets the urn. */
const URN_PREFIX_OF_FACET: Readonly<Record<string, string>> = {
  platform: 'urn:li:dataPlatform:',
  tags: 'urn:li:tag:',
  glossaryTerms: 'urn:li:glossaryTerm:',
  domains: 'urn:li:domain:',
};

/** The value the URL shows for a facet value. */
export function urlValueOf(field: string, value: string): string {
  const prefix = URN_PREFIX_OF_FACET[field];
  return prefix !== undefined && value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

/** The facet value a URL value stands for. */
export function facetValueOf(field: string, urlValue: string): string {
  const prefix = URN_PREFIX_OF_FACET[field];
  return prefix !== undefined && !urlValue.startsWith('urn:') ? `${prefix}${urlValue}` : urlValue;
}

/** The raw search object (the router's parse of the query string) as the page's state. */
export function validateSearchParams(raw: Record<string, unknown>): SearchParams {
  const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
  const q = first(raw['q']);
  const page = Number(first(raw['page']));
  const sort = first(raw['sort']);
  const filters: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (RESERVED.has(key)) continue;
    const values = (Array.isArray(value) ? value : [value]).filter(
      (v): v is string => typeof v === 'string' && v !== '',
    );
    if (values.length > 0) filters[key] = [...new Set(values)];
  }
  return {
    q: typeof q === 'string' ? q : '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort: SORT_KEYS.includes(sort as SortKey) ? (sort as SortKey) : 'relevance',
    filters,
  };
}

/** What the URL holds for a state: defaults left out, so a plain search is `/search?q=orders`. */
export function searchParamsToUrl(params: SearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (params.q !== '') out['q'] = params.q;
  for (const [field, values] of Object.entries(params.filters))
    if (values.length > 0) out[field] = [...values];
  if (params.sort !== 'relevance') out['sort'] = params.sort;
  if (params.page > 1) out['page'] = String(params.page);
  return out;
}

/** The state with one facet value chosen or not (back to page 1: the results change). */
export function toggleFilter(params: SearchParams, field: string, urlValue: string): SearchParams {
  const current = params.filters[field] ?? [];
  const values = current.includes(urlValue) ? current.filter((v) => v !== urlValue) : [...current, urlValue];
  const filters = { ...params.filters, [field]: values };
  if (values.length === 0) delete filters[field];
  return { ...params, filters, page: 1 };
}

/** Parses a query string into the router's search object (a repeated key becomes a list). */
export function parseQueryString(search: string): Record<string, unknown> {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** Writes the router's search object as a query string (lists as repeated keys). */
export function stringifyQueryString(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
