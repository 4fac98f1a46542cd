import type { BrowseResponse, Filter } from '../port.js';
import type { IndexedEntity } from './indexed-entity.js';
import { filterSql } from './sqlite-filter-sql.js';
import type { StatementCache } from './statement-cache.js';

/**
 * Browse over the `browse` table: rows whose parent is `path` are either groups (leaf = 0: the entity
 * lies deeper) or entities listed at `path` (leaf = 1: the segment is the entity's name). Soft-deleted
 * entities are left out.
 *
 * Counts are of rows where a document has one row each: the key (entity_type, parent, leaf, segment,
 * doc) holds a document once per group, and once among the leaves (its name is the same on every
 * path). Only the total under `path` can meet a document twice, when it is listed under several
 * paths (`multi`, browse-multi-path.ts): those rows alone are counted distinct.
 *
 * Without a filter the counts come from aggregates kept per path (browse-counts.ts), at the cost of
 * the path's groups; a filter scans the rows under the path, as the aggregates cannot know it.
 */
export function runBrowse(
  queries: StatementCache,
  entity: IndexedEntity,
  path: string,
  filter: Filter | undefined,
  start: number,
  limit: number,
): BrowseResponse {
  const { where, params } = browseRowsWhere(entity, path, filter);
  const counts =
    filter === undefined
      ? browseCountsOfPath(queries, entity.spec.entityType, path)
      : browseCountsByScan(queries, { where, params });
  const entities =
    limit === 0
      ? []
      : queries.all<{ urn: string; name: string }>(
          `SELECT d.urn AS urn, MIN(b.segment) AS name FROM browse b JOIN docs d ON d.id = b.doc
           WHERE ${where} AND b.leaf = 1 GROUP BY b.doc ORDER BY d.urn LIMIT ? OFFSET ?`,
          [...params, limit, start],
        );
  return {
    groups: counts.groups,
    entities,
    totalEntities: counts.totalEntities,
    totalNumEntities: counts.totalNumEntities,
  };
}

export type BrowseCounts = Pick<BrowseResponse, 'groups' | 'totalEntities' | 'totalNumEntities'>;

/**
 * The counts of a browse without a filter, from the per-path aggregates (browse-counts.ts): the
 * groups and totals cost a read of the path's groups, whatever number of rows lies under it; only the
 * documents under several paths are counted distinct from their rows, through `browse_multi`.
 */
export function browseCountsOfPath(queries: StatementCache, entityType: string, path: string): BrowseCounts {
  const groups = queries.all<{ name: string; count: number }>(
    `SELECT segment AS name, live AS count FROM browse_groups
     WHERE entity_type = ? AND parent = ? AND live > 0 ORDER BY segment`,
    [entityType, path],
  );
  const totals = queries.get1<{ leaves: number; single: number; multi: number }>(
    `SELECT COALESCE(t.leaves, 0) AS leaves, COALESCE(t.single, 0) AS single,
            (SELECT COUNT(DISTINCT doc) FROM browse
             WHERE entity_type = ? AND parent = ? AND removed = 0 AND multi = 1) AS multi
     FROM (SELECT 1) LEFT JOIN browse_totals t ON t.entity_type = ? AND t.parent = ?`,
    [entityType, path, entityType, path],
  )!;
  return {
    groups,
    totalEntities: totals.leaves,
    totalNumEntities: totals.single + totals.multi,
  };
}

/**
 * The condition selecting a path's live `browse` rows (alias `b`) that a filter keeps, with its
 * parameters: built once per browse, for the entities page and the counts.
 */
export interface BrowseRowsWhere {
  readonly where: string;
  readonly params: readonly unknown[];
}

/** The rows of `path` (of the entity's type) that `filter` keeps. */
export function browseRowsWhere(
  entity: IndexedEntity,
  path: string,
  filter: Filter | undefined,
): BrowseRowsWhere {
  const f = filterSql(entity, filter, 'b.doc');
  return {
    where: `b.entity_type = ? AND b.parent = ? AND b.removed = 0 AND ${f.sql}`,
    params: [entity.spec.entityType, path, ...f.params],
  };
}

/** The counts of a browse by a scan of the rows under the path: with a filter, which the aggregates do not know. */
export function browseCountsByScan(
  queries: StatementCache,
  { where, params }: BrowseRowsWhere,
): BrowseCounts {
  const groups = queries.all<{ name: string; count: number }>(
    `SELECT b.segment AS name, COUNT(*) AS count FROM browse b
     WHERE ${where} AND b.leaf = 0 GROUP BY b.segment ORDER BY b.segment`,
    params,
  );
  const totalEntities =
    queries.get1<{ n: number }>(`SELECT COUNT(*) AS n FROM browse b WHERE ${where} AND b.leaf = 1`, params)
      ?.n ?? 0;
  const totalNumEntities =
    queries.get1<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM browse b WHERE ${where} AND b.multi = 0)
            + (SELECT COUNT(DISTINCT b.doc) FROM browse b WHERE ${where} AND b.multi = 1) AS n`,
      [...params, ...params],
    )?.n ?? 0;
  return { groups, totalEntities, totalNumEntities };
}
