import { resolveField } from '../index-spec-for.js';
import type { SearchSortValue } from '../port.js';
import { compareCodePoints, compareSortValues, MAX_KEYWORD_LENGTH, type SortKind } from '../sort-values.js';
import type { NormalizedSearch } from '../validate-search-request.js';
import type { KeysetPosition, NormalizedSort } from '../validate-sort.js';
import { jsonPathOf, type IndexedEntity } from './indexed-entity.js';
import { FIELD_ID_SQL } from './keyed-values-schema.js';
import type { SqlPart } from './sqlite-filter-sql.js';
import type { StatementCache } from './statement-cache.js';
import type { TextMatches } from './text-index-reader.js';
import { rankedPage } from './text-ranking.js';
import type { UrnOrder } from './urn-order.js';

/** One candidate hit of one entity type: its sort keys as `k0`, `k1`... (stored form, null if none). */
export interface PageRow {
  readonly id: number;
  readonly urn: string;
  readonly score: number;
  readonly [key: `k${number}`]: string | number | null;
}

/** Where one entity type's matches come from: `FROM <tables> WHERE <where>`, with `docs d` in tables. */
export interface MatchSource {
  readonly tables: string;
  readonly where: SqlPart;
  /** True when the matches sit in temp.search_hits `h` (with their score). */
  readonly materialized: boolean;
  /** How many matches there are (for plan choices). */
  readonly hits: number;
  /** The ids of the matches, when they were read in memory (in temp.search_hits too if materialized). */
  readonly ids?: ArrayLike<number>;
  /** A text query's scored matches when nothing needs them in SQL: the page is ranked in memory. */
  readonly ranked?: TextMatches;
  /** The type's urn order, when `ids` (no text query, no sort keys) are paged by it in memory. */
  readonly urnOrder?: UrnOrder;
}

/**
 * The first `start + count` matches of one entity type in hit order (see SearchRequest.sort): sort keys
 * (absent last), then score unless keyset paging, then urn; with keyset paging, only those after the
 * position. The caller merges the entity types' rows with compareRows.
 */
export function pageRows(
  queries: StatementCache,
  entity: IndexedEntity,
  search: NormalizedSearch,
  source: MatchSource,
): PageRow[] {
  const limit = search.start + search.count;
  if (limit === 0) return [];
  if (source.ranked !== undefined) return rankedPage(queries, source.ranked, limit);
  if (source.urnOrder !== undefined && source.ids !== undefined)
    return pageInUrnOrder(queries, source.urnOrder, source.ids, limit);
  const keyset = search.after !== undefined;
  const score = source.materialized ? 'h.score' : '0';
  // Without a text query every score is 0: ordering by urn alone lets the (entity_type, removed, urn)
  // index give the page without sorting the match set.
  const byScore = source.materialized && search.query.kind === 'text' && !keyset ? ['score DESC'] : [];
  if (search.sort.length === 0) {
    // Ranked by score alone, the page lies within the hits scoring at least the limit-th best score: only
    // those (ties included) are joined with docs and sorted, not the whole match set.
    const cutoff =
      search.after !== undefined && search.after !== null
        ? { sql: ' AND d.urn > ?', params: [search.after.urn] }
        : byScore.length > 0
          ? {
              sql: ' AND h.score >= IFNULL((SELECT score FROM temp.search_hits ORDER BY score DESC LIMIT 1 OFFSET ?), h.score)',
              params: [limit - 1],
            }
          : { sql: '', params: [] };
    return queries.all<PageRow>(
      `SELECT d.id AS id, d.urn AS urn, ${score} AS score
       FROM ${source.tables} WHERE ${source.where.sql}${cutoff.sql} ORDER BY ${[...byScore, 'd.urn ASC'].join(', ')} LIMIT ?`,
      [...source.where.params, ...cutoff.params, limit],
    );
  }
  const keys = search.sort.map((key) => sortKeySql(entity, key));
  const orderBy = [
    ...search.sort.map((key, i) => `k${i} IS NULL, k${i} ${key.order === 'ASCENDING' ? 'ASC' : 'DESC'}`),
    ...byScore,
    'urn ASC',
  ].join(', ');
  const after = search.after ? afterSql(search.sort, search.after) : undefined;
  // Materialized once: the keys are correlated subqueries, which the filter and the order would
  // otherwise evaluate again.
  return queries.all<PageRow>(
    `WITH keyed AS MATERIALIZED (
       SELECT d.id AS id, d.urn AS urn, ${score} AS score${keys.map((k, i) => `, ${k.sql} AS k${i}`).join('')}
       FROM ${source.tables} WHERE ${source.where.sql})
     SELECT * FROM keyed${after === undefined ? '' : ` WHERE ${after.sql}`} ORDER BY ${orderBy} LIMIT ?`,
    [...keys.flatMap((k) => k.params), ...source.where.params, ...(after?.params ?? []), limit],
  );
}

/**
 * The first `limit` of a match set held in memory, in urn order (a search without sort keys, text
 * query or keyset position): the urns of a few candidates are read (see UrnOrder.candidates), not those
 * of every match.
 */
function pageInUrnOrder(
  queries: StatementCache,
  order: UrnOrder,
  ids: ArrayLike<number>,
  limit: number,
): PageRow[] {
  if (ids.length === 0) return [];
  const { ranked, unranked } = order.candidates(ids, limit);
  const rows = queries.all<{ id: number; urn: string }>(
    'SELECT id, urn FROM docs WHERE id IN (SELECT value FROM json_each(?))',
    [JSON.stringify([...ranked, ...unranked])],
  );
  return rows
    .sort((a, b) => compareCodePoints(a.urn, b.urn))
    .slice(0, limit)
    .map((row) => ({ id: row.id, urn: row.urn, score: 0 }));
}

/**
 * One sort key of a document (`d`) as OpenSearch sees it: the smallest value ascending, the largest
 * descending; numbers as numbers; strings in their exact form, those too long for a keyword left out;
 * NULL when the entity type has no such field (or the document no value).
 */
function sortKeySql(entity: IndexedEntity, key: NormalizedSort): SqlPart {
  const mapping = resolveField(entity.spec, key.name);
  if (mapping === undefined) return { sql: 'NULL', params: [] };
  const aggregate = key.order === 'ASCENDING' ? 'MIN' : 'MAX';
  const kept = (value: string) => `length(${value}) <= ${MAX_KEYWORD_LENGTH}`;
  if (entity.keyed.has(mapping.name)) {
    // Through `vals_by_doc`: the correlated subquery probes each match's values of the field. Reading
    // them from the stored document instead (json_each over doc_json) measured 3 to 9 times slower
    // (20,000 datasets, every document matching: 32 ms against 284 sorting by platform).
    const column = key.kind === 'number' ? 'x.num' : 'x.value';
    const where = key.kind === 'string' ? ` AND ${kept('x.value')}` : '';
    return {
      sql: `(SELECT ${aggregate}(${column}) FROM vals v JOIN val_values x ON x.id = v.value
             WHERE v.doc = d.id AND v.field = ${FIELD_ID_SQL}${where})`,
      params: [entity.spec.entityType, mapping.name],
    };
  }
  // Only free-text fields are not keyed: their string values are read from the stored document.
  return {
    sql: `(SELECT ${aggregate}(value) FROM json_each(doc_json(d.doc), ?) WHERE type = 'text' AND ${kept('value')})`,
    params: [jsonPathOf(mapping.name)],
  };
}

/**
 * Rows strictly after the position in hit order: for some key i, equal keys before i and key i beyond
 * the position's (a missing value is beyond every value; nothing is beyond a missing one), or all keys
 * equal and a greater urn.
 */
function afterSql(sort: readonly NormalizedSort[], position: KeysetPosition): SqlPart {
  const disjuncts: SqlPart[] = [];
  const equal: SqlPart[] = [];
  sort.forEach((key, i) => {
    const value = storedValue(position.values[i] ?? null);
    if (value !== null) {
      const beyond = `(k${i} ${key.order === 'ASCENDING' ? '>' : '<'} ? OR k${i} IS NULL)`;
      disjuncts.push(and([...equal, { sql: beyond, params: [value] }]));
    }
    equal.push({ sql: `k${i} IS ?`, params: [value] });
  });
  disjuncts.push(and([...equal, { sql: 'urn > ?', params: [position.urn] }]));
  return {
    sql: disjuncts.map((d) => `(${d.sql})`).join(' OR '),
    params: disjuncts.flatMap((d) => d.params),
  };
}

function and(parts: readonly SqlPart[]): SqlPart {
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/** A sort value as `vals` stores it: booleans as text. */
function storedValue(value: SearchSortValue): string | number | null {
  return typeof value === 'boolean' ? String(value) : value;
}

/** A stored sort key as a SearchSortValue of the key's kind. */
function sortValueOf(stored: string | number | null | undefined, kind: SortKind): SearchSortValue {
  if (stored === null || stored === undefined) return null;
  if (kind === 'boolean') return stored === 'true' || stored === 1;
  if (kind === 'number') return Number(stored);
  return String(stored);
}

/** A row's SearchHit.sortValues: its sort keys, then its urn. */
export function sortValuesOf(row: PageRow, search: NormalizedSearch): SearchSortValue[] {
  return [...search.sort.map((key, i) => sortValueOf(row[`k${i}`], key.kind)), row.urn];
}

/** Hit order across entity types, as pageRows orders the rows of one. */
export function compareRows(a: PageRow, b: PageRow, search: NormalizedSearch): number {
  for (let i = 0; i < search.sort.length; i++) {
    const key = search.sort[i];
    if (key === undefined) continue;
    const order = compareSortValues(
      sortValueOf(a[`k${i}`], key.kind),
      sortValueOf(b[`k${i}`], key.kind),
      key.order,
    );
    if (order !== 0) return order;
  }
  if (search.after === undefined && a.score !== b.score) return b.score - a.score;
  return compareCodePoints(a.urn, b.urn);
}
