import { stripKeywordSuffix } from './normalize-filter.js';
import { tokenize } from './text-tokens.js';

/** What a search input asks for. */
export type SearchQuery =
  | { readonly kind: 'all' }
  | { readonly kind: 'text'; readonly terms: readonly string[] }
  | {
      readonly kind: 'field';
      readonly field: string;
      readonly value: string;
      /** `field:value*`: values that start with `value` (ignoring case), not only equal ones. */
      readonly prefix?: boolean;
    };

const FIELD_FORM = /^([A-Za-z_][A-Za-z0-9_.]*):(.+)$/s;

/**
 * Parses a search input: `*`, empty or only punctuation → all; a URN (`urn:li:...`) → an exact match on
 * the `urn` field (URNs contain colons, so they are never the field form); `<field>:<value>` → an exact
 * (case-insensitive) match of the value on that field (`.keyword` dropped; the field is checked against
 * the index by validateSearchRequest), a trailing unescaped `*` making it a prefix match, and `\x`
 * standing for `x` as in the ecosystem's query syntax (`qualifiedName:db\.orders*`); anything else →
 * free text, split into lower-case words.
 */
export function parseSearchInput(input: string): SearchQuery {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed === '*') return { kind: 'all' };
  if (trimmed.startsWith('urn:li:')) return { kind: 'field', field: 'urn', value: trimmed };
  const match = FIELD_FORM.exec(trimmed);
  if (match !== null) {
    const raw = (match[2] ?? '').trim();
    const prefix = /(^|[^\\])(\\\\)*\*$/.test(raw);
    const value = unescape(prefix ? raw.slice(0, -1) : raw);
    const field = stripKeywordSuffix(match[1] ?? '');
    if (value !== '') return { kind: 'field', field, value, ...(prefix ? { prefix } : {}) };
  }
  // A repeated word asks nothing more than once; each distinct one costs a clause per field.
  const terms = [...new Set(tokenize(trimmed))];
  return terms.length === 0 ? { kind: 'all' } : { kind: 'text', terms };
}

/** `\x` → `x`: the query syntax's escapes (`\.`, `\*`, `\\`). */
function unescape(value: string): string {
  return value.replace(/\\(.)/gs, '$1');
}
