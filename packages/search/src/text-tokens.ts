import type { SearchFieldType } from '@catalog/model';

const URN_PREFIX = /urn:li:[A-Za-z0-9_]+:/g;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/**
 * Splits text into lower-case words: runs of letters and digits, everything else (space, `.`, `_`, `-`,
 * `/`, `:`, parentheses, commas) separates. Both the query and the indexed text go through it, so
 * `customer_orders` and `db.customer.orders` both contain the word `orders`.
 */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(NON_WORD)
    .filter((word) => word !== '');
}

/**
 * The text that full-text search sees for one field value. URN values drop their `urn:li:<type>:`
 * prefixes, so `urn:li:tag:pii` is found by `pii` and not by every query for `urn` or `tag`.
 */
export function fullTextOf(type: SearchFieldType, value: string): string {
  return type === 'URN' || type === 'URN_PARTIAL' ? value.replace(URN_PREFIX, ' ') : value;
}

/** Whether every query term is a prefix of some word of `text` (how full-text and autocomplete match). */
export function termsMatchText(terms: readonly string[], text: string): boolean {
  const words = tokenize(text);
  return terms.every((term) => words.some((word) => word.startsWith(term)));
}

/** Whether any query term is a prefix of some word of `text` (a field's contribution to a hit). */
export function anyTermMatchesText(terms: readonly string[], text: string): boolean {
  const words = tokenize(text);
  return terms.some((term) => words.some((word) => word.startsWith(term)));
}
