import type { AutocompleteResponse, EntityDocument, Filter } from '../port.js';
import { fullTextOf, termsMatchText, tokenize } from '../text-tokens.js';
import { jsonPathOf, valuesOf, type IndexedEntity } from './indexed-entity.js';
import { filterSql, type SqlPart } from './sqlite-filter-sql.js';
import type { StatementCache } from './statement-cache.js';
import { decodeDocument } from './stored-document.js';
import type { TextIndexReader, TextMatches } from './text-index-reader.js';
import { kthBest } from './text-ranking.js';
import { compareCodePoints } from '../sort-values.js';

/** Candidate documents read per suggestion asked for: duplicates and non-matching fields thin them out. */
const CANDIDATES_PER_SUGGESTION = 4;

/**
 * Suggestions: values of `fields` having a word that starts with each query word. Candidates come from
 * the text index's postings of those columns (best bm25 first, then by urn); values whose whole text
 * starts with the query come first, then in candidate order; distinct, at most `limit`.
 */
export function runAutocomplete(
  queries: StatementCache,
  text: TextIndexReader,
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
    text,
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
    const docFields = JSON.parse(decodeDocument(candidate.doc)) as EntityDocument['fields'];
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
  text: TextIndexReader,
  entity: IndexedEntity,
  fields: readonly string[],
  terms: readonly string[],
  filter: Filter | undefined,
  max: number,
): { urn: string; doc: string | Uint8Array }[] {
  const f = filterSql(entity, filter, 'd.id');
  const columns = fields.map((field) => entity.columns.findIndex((c) => c.field === field));
  if (columns.every((i) => i >= 0 && entity.columns[i]?.autocomplete === true)) {
    // Each column's own postings, weighted by its boost (1 for a column without one).
    const groups = columns.map((i) => {
      const weight = entity.columns[i]?.weight ?? 0;
      return { group: i + 1, factor: weight > 0 ? weight : 1 };
    });
    return bestCandidates(queries, text.match(entity, terms, { groups }, false), f, max);
  }
  const anyField = fields.map(
    () => 'EXISTS (SELECT 1 FROM json_each(doc_json(d.doc), ?) j WHERE instr(lower(j.value), ?) > 0)',
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

/**
 * The `max` best matches passing the filter, by score descending then urn: the matches at or above the
 * max-th best score are read (with their documents) and those the filter drops are made up for by
 * reading further down, a score band at a time.
 */
function bestCandidates(
  queries: StatementCache,
  matches: TextMatches,
  filter: SqlPart,
  max: number,
): { urn: string; doc: string | Uint8Array }[] {
  if (matches.n === 0 || max <= 0) return [];
  let wanted = max;
  for (;;) {
    const cutoff = kthBest(matches.scores, matches.n, wanted);
    const scoreOf = new Map<number, number>();
    for (let i = 0; i < matches.n; i++)
      if (matches.scores[i]! >= cutoff) scoreOf.set(matches.ids[i]!, matches.scores[i]!);
    const rows = queries.all<{ id: number; urn: string; doc: string | Uint8Array }>(
      `SELECT d.id AS id, d.urn AS urn, d.doc AS doc FROM docs d
       WHERE d.id IN (SELECT value FROM json_each(?)) AND ${filter.sql}`,
      [JSON.stringify([...scoreOf.keys()]), ...filter.params],
    );
    if (rows.length >= max || scoreOf.size >= matches.n) {
      return rows
        .sort(
          (a, b) => (scoreOf.get(b.id) ?? 0) - (scoreOf.get(a.id) ?? 0) || compareCodePoints(a.urn, b.urn),
        )
        .slice(0, max)
        .map(({ urn, doc }) => ({ urn, doc }));
    }
    wanted = Math.min(matches.n, wanted * 4);
  }
}
