import { fieldValueMatches } from '../field-value-matches.js';
import type { SearchQuery } from '../parse-search-input.js';
import { anyTermMatchesText, fullTextOf } from '../text-tokens.js';
import type { MatchedField } from '../port.js';
import { stringsOf } from './entity-document-codec.js';
import type { FieldPaths } from './field-paths.js';
import type { Query } from './filter-query.js';

/** Edge n-grams are indexed up to this length (entity-mappings.ts); longer terms use a prefix query. */
const MAX_GRAM = 20;

/** The full-text fields of the indices queried: one per analyzed path, with its highest boost. */
export function fullTextFields(fieldSets: readonly (readonly FieldPaths[])[]): FieldPaths[] {
  const byPath = new Map<string, FieldPaths>();
  for (const fields of fieldSets) {
    for (const field of fields) {
      if (field.boost <= 0 || field.text === undefined) continue;
      const existing = byPath.get(field.text);
      if (existing === undefined || existing.boost < field.boost) byPath.set(field.text, field);
    }
  }
  return [...byPath.values()];
}

/**
 * Every term must be a word or a word prefix in some full-text field; a term scores the highest boost
 * among the fields it hits (constant per field, so ranking follows the field weights, as in the embedded
 * adapter), and a document's score is the sum over the terms.
 */
export function fullTextQuery(terms: readonly string[], fields: readonly FieldPaths[]): Query {
  if (fields.length === 0) return { match_none: {} };
  return {
    bool: {
      must: terms.map((term): Query => ({
        dis_max: {
          queries: fields.map((field) => ({
            constant_score: { filter: wordPrefix(field, term), boost: field.boost },
          })),
        },
      })),
    },
  };
}

function wordPrefix(field: FieldPaths, term: string): Query {
  // The n-grams of a URN field (its autocomplete) are cut from the whole urn, `urn:li:<type>:` included;
  // its words drop those prefixes, as the embedded adapter's do (`urn` or `li` finds no urn value).
  const urnWords = field.type === 'URN' || field.type === 'URN_PARTIAL';
  if (field.partial !== undefined && !urnWords && [...term].length <= MAX_GRAM)
    return { term: { [field.partial]: term } };
  return { prefix: { [field.text ?? field.exact]: term } };
}

/**
 * The fields a hit matched, from its stored source: for free text, the first value of each full-text
 * field that some term hits; for `field:value`, the value that equals the query ignoring case.
 */
export function matchedFields(
  query: SearchQuery,
  fields: readonly FieldPaths[],
  source: Readonly<Record<string, unknown>>,
): MatchedField[] {
  if (query.kind === 'all') return [];
  if (query.kind === 'field') {
    const value = valuesOf(source[query.field]).find((v) => fieldValueMatches(query, v));
    return value === undefined ? [] : [{ name: query.field, value }];
  }
  const matched: MatchedField[] = [];
  for (const field of fields) {
    if (field.boost <= 0 || field.text === undefined) continue;
    const value = stringsOf(source[field.name]).find((v) =>
      anyTermMatchesText(query.terms, fullTextOf(field.type, v)),
    );
    if (value !== undefined) matched.push({ name: field.name, value });
  }
  return matched;
}

function valuesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => ['string', 'number', 'boolean'].includes(typeof v)).map(String);
}
