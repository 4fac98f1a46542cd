import type { SearchFieldType } from '@catalog/model';
import { NUMERIC_TYPES } from './document-fields.js';
import type { SearchSortValue, SortOrder } from './port.js';

/** How a field's values compare when sorted: as strings, as numbers (dates too) or as booleans. */
export type SortKind = 'string' | 'number' | 'boolean';

export function sortKindOf(type: SearchFieldType): SortKind {
  if (NUMERIC_TYPES.has(type)) return 'number';
  return type === 'BOOLEAN' ? 'boolean' : 'string';
}

/**
 * The longest string value kept in its exact (keyword) form: Lucene's 32766-byte term limit at 4 bytes
 * per character. OpenSearch indexes no keyword for a longer value (`ignore_above`), so a sort sees none.
 */
export const MAX_KEYWORD_LENGTH = 8191;

/** Strings in Unicode code point order (= UTF-8 byte order, as Lucene and SQLite compare them). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** UTF-16 units ranked in code point order: surrogates (above U+FFFF) after U+E000..U+FFFF. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** Two values of one sort key in hit order: missing (null) last in both orders. */
export function compareSortValues(a: SearchSortValue, b: SearchSortValue, order: SortOrder): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  let ascending: number;
  if (typeof a === 'string' && typeof b === 'string') ascending = compareCodePoints(a, b);
  else if (typeof a === 'number' && typeof b === 'number') ascending = a - b;
  else ascending = Number(a) - Number(b);
  return order === 'DESCENDING' ? -ascending : ascending;
}
