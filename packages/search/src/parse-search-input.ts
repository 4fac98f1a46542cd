import { stripKeywordSuffix } from './normalize-filter.js';
import { tokenize } from './text-tokens.js';

/** What a search input asks for. */
export type SearchQuery =
  | { readonly kind: 'all' }
  | { readonly kind: 'text'; readonly terms: readonly string[] }
  | { readonly kind: 'field'; readonly field: string; readonly value: string };

const FIELD_FORM = /^([A-Za-z_][A-Za-z0-9_.]*):(.+)$/s;

/**
 * Parses a search input: `*`, empty or only punctuation → all; a URN (`urn:li:...`) → an exact match on
 * the `urn` field (URNs contain colons, so they are never the field form); `<field>:<value>` → an exact
 * (case-insensitive) match of the value on that field (`.keyword` dropped; the field is checked against
 * the index by validateSearchRequest); anything else → free text, split into lower-case words.
 */
export function parseSearchInput(input: string): SearchQuery {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed === '*') return { kind: 'all' };
  if (trimmed.startsWith('urn:li:')) return { kind: 'field', field: 'urn', value: trimmed };
  const match = FIELD_FORM.exec(trimmed);
  if (match !== null) {
    const value = (match[2] ?? '').trim();
    if (value !== '') return { kind: 'field', field: stripKeywordSuffix(match[1] ?? ''), value };
  }
  const terms = tokenize(trimmed);
  return terms.length === 0 ? { kind: 'all' } : { kind: 'text', terms };
}
