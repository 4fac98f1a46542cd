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
    `SELECT b.segment AS name, COUNT(*) AS count FROM browse b
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
    queries.get1<{ n: number }>(`SELECT COUNT(*) AS n FROM browse b WHERE ${where} AND b.leaf = 1`, params)
      ?.n ?? 0;
  const totalNumEntities =
    queries.get1<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM browse b WHERE ${where} AND b.multi = 0)
            + (SELECT COUNT(DISTINCT b.doc) FROM browse b WHERE ${where} AND b.multi = 1) AS n`,
      [...params, ...params],
    )?.n ?? 0;
  return {
    groups: groups.map((g) => ({ name: g.name, count: g.count })),
    entities: entities.map((e) => ({ urn: e.urn, name: e.name })),
    totalEntities,
    totalNumEntities,
  };
}
