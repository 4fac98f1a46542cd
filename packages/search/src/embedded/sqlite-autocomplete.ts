import type { AutocompleteResponse, EntityDocument, Filter } from '../port.js';
import { fullTextOf, termsMatchText, tokenize } from '../text-tokens.js';
import { jsonPathOf, valuesOf, type IndexedEntity } from './indexed-entity.js';
import { filterSql } from './sqlite-filter-sql.js';
import { ftsTableOf } from './sqlite-search-schema.js';
import { ftsQuery } from './sqlite-search-query.js';
import type { StatementCache } from './statement-cache.js';

/** Candidate documents read per suggestion asked for: duplicates and non-matching fields thin them out. */
const CANDIDATES_PER_SUGGESTION = 4;

/**
 * Suggestions: values of `fields` having a word that starts with each query word. Candidates come from
 * the FTS table restricted to those columns (best bm25 first); values whose whole text starts with the
 * query come first, then in candidate order; distinct, at most `limit`.
 */
export function runAutocomplete(
  queries: StatementCache,
  entity: IndexedEntity,
  fields: readonly string[],
  query: string,
  filter: Filter | undefined,
  limit: number,
): AutocompleteResponse {
  const terms = tokenize(query);
  if (terms.length === 0 || limit === 0 || fields.length === 0) return { suggestions: [], entities: [] };
  const candidates = candidateDocs(
    queries,
    entity,
    fields,
    terms,
    filter,
    limit * CANDIDATES_PER_SUGGESTION + 20,
  );
  const prefix = query.trim().toLowerCase();
  const leading: string[] = [];
  const other: string[] = [];
  const entities: string[] = [];
  for (const candidate of candidates) {
    const docFields = JSON.parse(candidate.doc) as EntityDocument['fields'];
    let matched = false;
    for (const field of fields) {
      const type = entity.mappings.get(field)?.type ?? 'TEXT';
      for (const v of valuesOf(docFields[field])) {
        const text = String(v);
        if (!termsMatchText(terms, fullTextOf(type, text))) continue;
        matched = true;
        const bucket = text.toLowerCase().startsWith(prefix) ? leading : other;
        if (!leading.includes(text) && !other.includes(text)) bucket.push(text);
      }
    }
    if (matched && entities.length < limit) entities.push(candidate.urn);
  }
  return { suggestions: [...leading, ...other].slice(0, limit), entities };
}

function candidateDocs(
  queries: StatementCache,
  entity: IndexedEntity,
  fields: readonly string[],
  terms: readonly string[],
  filter: Filter | undefined,
  max: number,
): { urn: string; doc: string }[] {
  const f = filterSql(entity, filter, 'd.id');
  const columns = fields.map((field) => entity.columns.findIndex((c) => c.field === field));
  if (columns.every((i) => i >= 0)) {
    const table = ftsTableOf(entity.spec.entityType);
    const weights = entity.columns.map((c) => (c.weight > 0 ? c.weight : 1)).join(', ');
    const match = `{${columns.map((i) => `c${i}`).join(' ')}} : (${ftsQuery(terms)})`;
    return queries.all(
      `SELECT d.urn AS urn, d.doc AS doc FROM ${table} JOIN docs d ON d.id = ${table}.rowid
       WHERE ${table} MATCH ? AND d.removed = 0 AND ${f.sql}
       ORDER BY bm25(${table}, ${weights}), d.urn LIMIT ?`,
      [match, ...f.params, max],
    );
  }
  const anyField = fields.map(
    () => 'EXISTS (SELECT 1 FROM json_each(d.doc, ?) j WHERE instr(lower(j.value), ?) > 0)',
  );
  return queries.all(
    `SELECT d.urn AS urn, d.doc AS doc FROM docs d
     WHERE d.entity_type = ? AND d.removed = 0 AND ${f.sql} AND (${anyField.join(' OR ')})
     ORDER BY d.urn LIMIT ?`,
    [
      entity.spec.entityType,
      ...f.params,
      ...fields.flatMap((field) => [jsonPathOf(field), terms[0] ?? '']),
      max,
    ],
  );
}
