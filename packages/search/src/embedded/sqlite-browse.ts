import type { BrowseResponse, Filter } from '../port.js';
import type { IndexedEntity } from './indexed-entity.js';
import { filterSql } from './sqlite-filter-sql.js';
import type { StatementCache } from './statement-cache.js';

/**
 * Browse over the `browse` table: rows whose parent is `path` are either groups (leaf = 0: the entity
 * lies deeper) or entities listed at `path` (leaf = 1: the segment is the entity's name). Soft-deleted
 * entities are left out.
 */
export function runBrowse(
  queries: StatementCache,
  entity: IndexedEntity,
  path: string,
  filter: Filter | undefined,
  start: number,
  limit: number,
): BrowseResponse {
  const f = filterSql(entity, filter, 'b.doc');
  const where = `b.entity_type = ? AND b.parent = ? AND b.removed = 0 AND ${f.sql}`;
  const params = [entity.spec.entityType, path, ...f.params];
  const groups = queries.all<{ name: string; count: number }>(
    `SELECT b.segment AS name, COUNT(DISTINCT b.doc) AS count FROM browse b
     WHERE ${where} AND b.leaf = 0 GROUP BY b.segment ORDER BY b.segment`,
    params,
  );
  const entities =
    limit === 0
      ? []
      : queries.all<{ urn: string; name: string }>(
          `SELECT d.urn AS urn, MIN(b.segment) AS name FROM browse b JOIN docs d ON d.id = b.doc
           WHERE ${where} AND b.leaf = 1 GROUP BY b.doc ORDER BY d.urn LIMIT ? OFFSET ?`,
          [...params, limit, start],
        );
  const totalEntities =
    queries.get1<{ n: number }>(
      `SELECT COUNT(DISTINCT b.doc) AS n FROM browse b WHERE ${where} AND b.leaf = 1`,
      params,
    )?.n ?? 0;
  const totalNumEntities =
    queries.get1<{ n: number }>(`SELECT COUNT(DISTINCT b.doc) AS n FROM browse b WHERE ${where}`, params)
      ?.n ?? 0;
  return {
    groups: groups.map((g) => ({ name: g.name, count: g.count })),
    entities: entities.map((e) => ({ urn: e.urn, name: e.name })),
    totalEntities,
    totalNumEntities,
  };
}
