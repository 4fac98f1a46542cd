import { fieldValueMatches } from '../field-value-matches.js';
import { NUMERIC_TYPES, URN_FIELD } from '../document-fields.js';
import type { Aggregation, EntityDocument, MatchedField, SearchHit, SearchResponse } from '../port.js';
import { anyTermMatchesText, fullTextOf } from '../text-tokens.js';
import type { NormalizedSearch } from '../validate-search-request.js';
import type { FacetCache, FacetRow } from './facet-cache.js';
import { exactFilterIds, forwardFilter } from './exact-value-filter.js';
import type { FacetForwardIndex } from './facet-forward-index.js';
import { jsonPathOf, valuesOf, type IndexedEntity } from './indexed-entity.js';
import { filterSql, keyedIdsWhere, TRUE, type SqlPart } from './sqlite-filter-sql.js';
import { compareRows, pageRows, sortValuesOf, type MatchSource, type PageRow } from './sqlite-page-rows.js';
import { sliceSql } from './sqlite-slice.js';
import type { StatementCache } from './statement-cache.js';
import { decodeDocument } from './stored-document.js';
import type { TextIndexReader, TextMatches } from './text-index-reader.js';

interface Ranked {
  readonly row: PageRow;
  readonly entity: IndexedEntity;
}

/**
 * Runs a validated search over the embedded tables, one entity type at a time, merged in memory. An
 * unrestricted `*` search reads indexes directly. A text query is matched and scored in memory by the
 * text index (TextIndexReader); its page, count and keyed facets are read from those matches, and only
 * what SQL must see (sort keys, keyset paging, a slice, a filter the forward index cannot test, a facet
 * of a free-text field) puts them into `temp.search_hits` (id, bm25 score). A `*` search with a filter
 * of exact values on keyed fields computes its match set as ids in memory too (exactFilterIds), paged
 * by the in-memory urn order (UrnOrder), and goes to `temp.search_hits` only for what SQL must see. Any
 * other match set (field or filter) is computed into `temp.search_hits`, which the count, the page and
 * every facet then read. Call inside one transaction so all of it sees one snapshot.
 */
export function runSearch(
  queries: StatementCache,
  entities: readonly IndexedEntity[],
  search: NormalizedSearch,
  facetCache: FacetCache,
  forward: FacetForwardIndex,
  text: TextIndexReader,
): SearchResponse {
  let total = 0;
  const ranked: Ranked[] = [];
  const facetCounts = search.facets.map(() => new Map<string, number>());
  const unrestricted =
    search.query.kind === 'all' && search.filter === undefined && search.slice === undefined;
  forward.sync();
  text.sync();
  for (const entity of entities) {
    const exact =
      !unrestricted &&
      search.query.kind === 'all' &&
      search.slice === undefined &&
      search.filter !== undefined
        ? exactFilterIds(queries, entity, search.filter, forward, search.includeRemoved)
        : undefined;
    const source = unrestricted
      ? unrestrictedSource(queries, entity, search, facetCache)
      : search.query.kind === 'text'
        ? textSource(queries, entity, search, forward, text)
        : exact !== undefined
          ? exactSource(queries, entity, search, forward, exact)
          : materialize(queries, entity, search);
    total += source.hits;
    for (const row of pageRows(queries, entity, search, source)) ranked.push({ row, entity });
    let hitIds: ArrayLike<number> | undefined;
    search.facets.forEach((facet, i) => {
      const counts = facetCounts[i];
      if (counts === undefined) return;
      if (entity.keyed.has(facet.field) && entity.mappings.get(facet.field)?.aliasOf === undefined) {
        // Keyed fields are counted in memory over the match set's ids (see FacetForwardIndex).
        const type = entity.spec.entityType;
        const count = (ids: ArrayLike<number> | undefined) =>
          forward.count(type, facet.field, ids, search.includeRemoved);
        let counted: ReadonlyMap<string, number>;
        if (source.materialized || source.ids !== undefined) {
          hitIds ??= source.ids ?? (queries.get('SELECT id FROM temp.search_hits').pluck().all() as number[]);
          counted = count(hitIds);
        } else {
          const key = `forward\u0000${facet.field}\u0000${search.includeRemoved}`;
          counted = facetCache.get(type, key, () => count(undefined));
        }
        for (const [value, n] of counted) counts.set(value, (counts.get(value) ?? 0) + n);
        return;
      }
      const limitInSql = entities.length === 1;
      const rows = source.materialized
        ? facetRows(queries, entity, search, facet.field, source, limitInSql)
        : facetCache.get(
            entity.spec.entityType,
            `${facet.field}\u0000${search.includeRemoved}\u0000${limitInSql ? search.maxAggValues : 'all'}`,
            () => facetRows(queries, entity, search, facet.field, source, limitInSql),
          );
      for (const { value, n } of rows) counts.set(String(value), (counts.get(String(value)) ?? 0) + n);
    });
  }
  ranked.sort((a, b) => compareRows(a.row, b.row, search));
  const page = ranked.slice(search.start, search.start + search.count);
  const docs = loadDocuments(queries, page, search);
  const hits: SearchHit[] = page.map(({ row, entity }) => ({
    urn: row.urn,
    entityType: entity.spec.entityType,
    score: row.score,
    matchedFields: matchedFields(entity, search, docs.get(row.id)),
    ...(search.after === undefined ? {} : { sortValues: sortValuesOf(row, search) }),
  }));
  const aggregations: Aggregation[] = search.facets.map((facet, i) => {
    // Equal counts order by value as OpenSearch's terms order does: numbers (dates too) as numbers.
    const numeric = entities.some((e) => {
      const type = e.mappings.get(facet.field)?.type;
      return type !== undefined && NUMERIC_TYPES.has(type);
    });
    const byValue = (a: string, b: string): number =>
      numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0;
    return {
      field: facet.name,
      values: [...(facetCounts[i] ?? new Map<string, number>())]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || byValue(a.value, b.value))
        .slice(0, search.maxAggValues),
    };
  });
  return { total, hits, aggregations };
}

function unrestrictedSource(
  queries: StatementCache,
  entity: IndexedEntity,
  search: NormalizedSearch,
  facetCache: FacetCache,
): MatchSource {
  const removed = search.includeRemoved ? '' : ' AND d.removed = 0';
  const [count] = facetCache.get(entity.spec.entityType, `count\u0000${search.includeRemoved}`, () => [
    {
      value: '',
      n:
        queries.get1<{ n: number }>(`SELECT COUNT(*) AS n FROM docs d WHERE d.entity_type = ?${removed}`, [
          entity.spec.entityType,
        ])?.n ?? 0,
    },
  ]);
  return {
    hits: count?.n ?? 0,
    tables: 'docs d',
    where: { sql: `d.entity_type = ?${removed}`, params: [entity.spec.entityType] },
    materialized: false,
  };
}

function materialize(queries: StatementCache, entity: IndexedEntity, search: NormalizedSearch): MatchSource {
  queries.get('DELETE FROM temp.search_hits').run();
  const rest = matchParts(entity, search);
  queries
    .get(`INSERT INTO temp.search_hits (id, score) SELECT d.id, 0 FROM docs d WHERE ${rest.sql}`)
    .run(...rest.params);
  return countedSearchHits(queries);
}

/**
 * The match set of an exact-value filter, computed in memory (exactFilterIds). Unless the page or a
 * facet must read it in SQL, it stays there: the page comes from the type's urn order, and keyed facets
 * count its ids.
 */
function exactSource(
  queries: StatementCache,
  entity: IndexedEntity,
  search: NormalizedSearch,
  forward: FacetForwardIndex,
  ids: Int32Array,
): MatchSource {
  if (!needsSearchHits(entity, search)) {
    const urnOrder = forward.urnOrder(entity.spec.entityType);
    return { hits: ids.length, tables: 'docs d', where: TRUE, materialized: false, ids, urnOrder };
  }
  fillSearchHits(queries, { ids, scores: new Float64Array(ids.length), n: ids.length });
  return { ...materialized(ids.length), ids };
}

/**
 * A text query's matches. A filter of exact values is tested in memory (FacetForwardIndex); with no
 * other condition and nothing that needs SQL, the matches are the source as they are (`ranked`).
 * Otherwise they go to temp.search_hits, where a slice or another filter drops those that fail it.
 */
function textSource(
  queries: StatementCache,
  entity: IndexedEntity,
  search: NormalizedSearch,
  forward: FacetForwardIndex,
  text: TextIndexReader,
): MatchSource {
  const terms = search.query.kind === 'text' ? search.query.terms : [];
  const inMemory = forwardFilter(entity, search.filter, forward);
  const all = text.search(entity, terms, search.includeRemoved);
  const matches = inMemory === undefined ? all : kept(all, inMemory);
  const inSql = search.slice !== undefined || (search.filter !== undefined && inMemory === undefined);
  if (!inSql && !needsSearchHits(entity, search)) {
    const ids = matches.ids.subarray(0, matches.n);
    return { hits: matches.n, tables: 'docs d', where: TRUE, materialized: false, ids, ranked: matches };
  }
  fillSearchHits(queries, matches);
  if (!inSql) return { ...materialized(matches.n), ids: matches.ids.subarray(0, matches.n) };
  const rest = matchParts(entity, search);
  queries
    .get(
      `DELETE FROM temp.search_hits WHERE NOT EXISTS
         (SELECT 1 FROM docs d WHERE d.id = temp.search_hits.id AND ${rest.sql})`,
    )
    .run(...rest.params);
  return countedSearchHits(queries);
}

/** Whether the page or a facet reads the matches in SQL: sort keys, keyset paging, a free-text facet. */
function needsSearchHits(entity: IndexedEntity, search: NormalizedSearch): boolean {
  if (search.sort.length > 0 || search.after !== undefined) return true;
  return search.facets.some((facet) => {
    const mapping = entity.mappings.get(facet.field);
    return mapping !== undefined && mapping.aliasOf === undefined && !entity.keyed.has(facet.field);
  });
}

/** The matches passing a test. */
function kept(matches: TextMatches, test: (id: number) => boolean): TextMatches {
  const ids = new Int32Array(matches.n);
  const scores = new Float64Array(matches.n);
  let n = 0;
  for (let i = 0; i < matches.n; i++) {
    const id = matches.ids[i]!;
    if (!test(id)) continue;
    ids[n] = id;
    scores[n] = matches.scores[i]!;
    n++;
  }
  return { ids, scores, n };
}

/** Rows per INSERT into temp.search_hits: scores are bound as doubles, exactly. */
const HITS_PER_INSERT = 250;

/** Replaces temp.search_hits by the matches. */
function fillSearchHits(queries: StatementCache, matches: TextMatches): void {
  queries.get('DELETE FROM temp.search_hits').run();
  for (let at = 0; at < matches.n; at += HITS_PER_INSERT) {
    const rows = Math.min(HITS_PER_INSERT, matches.n - at);
    const params: number[] = [];
    for (let i = at; i < at + rows; i++) params.push(matches.ids[i]!, matches.scores[i]!);
    queries
      .get(
        `INSERT INTO temp.search_hits (id, score) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`,
      )
      .run(...params);
  }
}

/** The matches temp.search_hits holds now, counted. */
function countedSearchHits(queries: StatementCache): MatchSource {
  return materialized(queries.get1<{ n: number }>('SELECT COUNT(*) AS n FROM temp.search_hits', [])?.n ?? 0);
}

/** The source of matches held in temp.search_hits. */
function materialized(hits: number): MatchSource {
  return { hits, tables: 'temp.search_hits h JOIN docs d ON d.id = h.id', where: TRUE, materialized: true };
}

/** The conditions (over `d`) besides the text match: entity type, removed, slice, filter, field query. */
function matchParts(entity: IndexedEntity, search: NormalizedSearch): SqlPart {
  const parts: SqlPart[] = [{ sql: 'd.entity_type = ?', params: [entity.spec.entityType] }];
  if (!search.includeRemoved) parts.push({ sql: 'd.removed = 0', params: [] });
  if (search.slice !== undefined) parts.push(sliceSql(search.slice));
  const filter = filterSql(entity, search.filter, 'd.id');
  if (filter.sql !== '1') parts.push(filter);
  const { query } = search;
  if (query.kind === 'field')
    parts.push(fieldQueryPart(entity, query.field, query.value, query.prefix === true));
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

function fieldQueryPart(entity: IndexedEntity, field: string, value: string, prefix: boolean): SqlPart {
  if (!entity.mappings.has(field)) return { sql: '0', params: [] };
  // The urn is a keyword, matched with its case as the ecosystem's urn field is: one index probe.
  if (field === URN_FIELD && !prefix) return { sql: 'd.urn = ?', params: [value] };
  // Equal ignoring case, or (prefix) starting with the value: LIKE with its wildcards escaped.
  const test = prefix ? `LIKE ? ESCAPE '\\'` : '= ?';
  const wanted = prefix ? `${value.toLowerCase().replace(/[\\%_]/g, '\\$&')}%` : value.toLowerCase();
  if (!entity.keyed.has(field))
    return {
      sql: `EXISTS (SELECT 1 FROM json_each(doc_json(d.doc), ?) j WHERE lower(j.value) ${test})`,
      params: [jsonPathOf(field), wanted],
    };
  return {
    sql: `d.id IN (${keyedIdsWhere(`lower(x.value) ${test}`)})`,
    params: [entity.spec.entityType, field, wanted],
  };
}

/**
 * The counts of a facet on a free-text field, read from the matching documents. (Keyed fields are
 * counted in memory by FacetForwardIndex; an alias or unknown field counts nothing.)
 */
function facetRows(
  queries: StatementCache,
  entity: IndexedEntity,
  search: NormalizedSearch,
  field: string,
  source: MatchSource,
  limitInSql: boolean,
): FacetRow[] {
  const mapping = entity.mappings.get(field);
  if (mapping === undefined || mapping.aliasOf !== undefined || entity.keyed.has(field)) return [];
  const tail = limitInSql ? ` ORDER BY n DESC, value ASC LIMIT ${search.maxAggValues}` : '';
  return queries.all(
    `SELECT j.value AS value, COUNT(DISTINCT d.id) AS n FROM ${source.tables}, json_each(doc_json(d.doc), ?) j
     WHERE ${source.where.sql} GROUP BY j.value${tail}`,
    [jsonPathOf(field), ...source.where.params],
  );
}

function loadDocuments(
  queries: StatementCache,
  page: readonly Ranked[],
  search: NormalizedSearch,
): Map<number, EntityDocument['fields']> {
  const docs = new Map<number, EntityDocument['fields']>();
  if (search.query.kind === 'all' || page.length === 0) return docs;
  const ids = page.map((p) => p.row.id);
  const rows = queries.all<{ id: number; doc: string | Uint8Array }>(
    `SELECT id, doc FROM docs WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  for (const row of rows) docs.set(row.id, JSON.parse(decodeDocument(row.doc)) as EntityDocument['fields']);
  return docs;
}

function matchedFields(
  entity: IndexedEntity,
  search: NormalizedSearch,
  fields: EntityDocument['fields'] | undefined,
): MatchedField[] {
  const { query } = search;
  if (fields === undefined || query.kind === 'all') return [];
  if (query.kind === 'field') {
    return valuesOf(fields[query.field])
      .filter((v) => fieldValueMatches(query, String(v)))
      .map((v) => ({ name: query.field, value: String(v) }));
  }
  const matched: MatchedField[] = [];
  for (const column of entity.columns) {
    if (column.weight <= 0) continue;
    for (const v of valuesOf(fields[column.field])) {
      if (anyTermMatchesText(query.terms, fullTextOf(column.type, String(v))))
        matched.push({ name: column.field, value: String(v) });
    }
  }
  return matched;
}
