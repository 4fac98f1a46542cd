import type { SearchQuery } from './parse-search-input.js';

/** Whether a stored value answers a `field:value` query: equal ignoring case, or starting with it for `value*`. */
export function fieldValueMatches(query: Extract<SearchQuery, { kind: 'field' }>, value: string): boolean {
  const wanted = query.value.toLowerCase();
  const lower = value.toLowerCase();
  return query.prefix === true ? lower.startsWith(wanted) : lower === wanted;
}
