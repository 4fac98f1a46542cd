import type Database from 'better-sqlite3';
import type { Edge, EdgeReplacement, GraphIndex, RelatedRequest, RelatedResponse } from '../port.js';
import type { SqliteHandle } from './sqlite-handle.js';
import { StatementCache } from './statement-cache.js';
import { writeTransaction } from './write-transaction.js';

interface RelatedRow {
  readonly type: string;
  readonly entity: string;
  readonly time: number | null;
  readonly actor: string | null;
}

/**
 * The embedded GraphIndex: one `edges` row per (source, aspect, relationship, target), keyed from the
 * source and indexed from the target. `related` groups by (entity, type), so an edge declared by two aspects is
 * listed once; ordered by entity then type.
 */
export class SqliteGraphIndex implements GraphIndex {
  private readonly queries: StatementCache;
  private readonly replace: (items: readonly EdgeReplacement[]) => void;
  private readonly remove: (urn: string) => void;
  private released = false;

  constructor(private readonly handle: SqliteHandle) {
    handle.acquire();
    const db: Database.Database = handle.db;
    this.queries = new StatementCache(db);
    const deleteAspect = db.prepare('DELETE FROM edges WHERE source = ? AND aspect = ?');
    const insert = db.prepare(
      `INSERT OR REPLACE INTO edges (source, aspect, relationship, target, created_at, created_actor)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.replace = writeTransaction(db, (items: readonly EdgeReplacement[]) => {
      for (const { source, aspect, edges } of items) {
        deleteAspect.run(source, aspect);
        for (const e of edges)
          insert.run(source, aspect, e.relationship, e.target, e.createdAt ?? null, e.createdActor ?? null);
      }
    });
    const deleteFrom = db.prepare('DELETE FROM edges WHERE source = ?');
    const deleteTo = db.prepare('DELETE FROM edges WHERE target = ?');
    this.remove = writeTransaction(db, (urn: string) => {
      deleteFrom.run(urn);
      deleteTo.run(urn);
    });
  }

  async ensure(): Promise<void> {}

  async replaceEdges(source: string, aspect: string, edges: readonly Edge[]): Promise<void> {
    this.replace([{ source, aspect, edges }]);
  }

  async replaceEdgesMany(items: readonly EdgeReplacement[]): Promise<void> {
    if (items.length > 0) this.replace(items);
  }

  async removeEntity(urn: string): Promise<void> {
    this.remove(urn);
  }

  async related(request: RelatedRequest): Promise<RelatedResponse> {
    const [self, other] = request.direction === 'OUTGOING' ? ['source', 'target'] : ['target', 'source'];
    const types = [...new Set(request.types)];
    const typeSql = types.length === 0 ? '' : ` AND relationship IN (${types.map(() => '?').join(', ')})`;
    const params = [request.urn, ...types];
    const total =
      this.queries.get1<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM edges WHERE ${self} = ?${typeSql} GROUP BY ${other}, relationship)`,
        params,
      )?.n ?? 0;
    const rows =
      request.count === 0
        ? []
        : this.queries.all<RelatedRow>(
            `SELECT relationship AS type, ${other} AS entity,
                    MIN(CASE WHEN created_actor IS NOT NULL THEN created_at END) AS time, created_actor AS actor
             FROM edges WHERE ${self} = ?${typeSql}
             GROUP BY ${other}, relationship ORDER BY ${other}, relationship LIMIT ? OFFSET ?`,
            [...params, request.count, request.start],
          );
    return {
      total,
      relationships: rows.map((r) => ({
        type: r.type,
        entity: r.entity,
        ...(r.time !== null && r.actor !== null ? { created: { time: r.time, actor: r.actor } } : {}),
      })),
    };
  }

  async refresh(): Promise<void> {}

  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.handle.release();
  }
}
