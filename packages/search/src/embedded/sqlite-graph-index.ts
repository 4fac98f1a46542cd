import type Database from 'better-sqlite3';
import type {
  Edge,
  EdgeEndpointFilter,
  EdgeKey,
  EdgeReplacement,
  EdgeScrollRequest,
  GraphIndex,
  RelatedRequest,
  RelatedResponse,
} from '../port.js';
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
 * The embedded GraphIndex: one `edges` row per (source, aspect, relationship, target), as ids of
 * `edge_urns` and `edge_names` (graph-edges-schema.ts), keyed from the source and indexed from the
 * target. `related` groups by (entity, type), so an edge declared by two aspects is listed once; ordered
 * by entity then type.
 */
export class SqliteGraphIndex implements GraphIndex {
  private readonly queries: StatementCache;
  private readonly replace: (items: readonly EdgeReplacement[]) => void;
  private readonly remove: (urn: string) => void;
  /**
   * `edge_names` ids: never deleted, so valid for good once committed. A name added by a transaction
   * that rolled back is not in the file, and SQLite may give its id to another name: the names added
   * in one transaction are checked at the start of the next (`confirmNames`).
   */
  private readonly names = new Map<string, number>();
  private addedNames: [string, number][] = [];
  private released = false;

  constructor(private readonly handle: SqliteHandle) {
    handle.acquire();
    const db: Database.Database = handle.db;
    this.queries = new StatementCache(db);
    const findUrn = db.prepare<[string], number>('SELECT id FROM edge_urns WHERE urn = ?').pluck();
    const insertUrn = db.prepare<[string]>('INSERT INTO edge_urns (urn) VALUES (?)');
    const findName = db.prepare<[string], number>('SELECT id FROM edge_names WHERE name = ?').pluck();
    const insertName = db.prepare<[string]>('INSERT INTO edge_names (name) VALUES (?)');
    const urnId = (urn: string): number => findUrn.get(urn) ?? Number(insertUrn.run(urn).lastInsertRowid);
    const nameId = (name: string): number => {
      let id = this.names.get(name) ?? findName.get(name);
      if (id === undefined) {
        id = Number(insertName.run(name).lastInsertRowid);
        this.addedNames.push([name, id]);
      }
      this.names.set(name, id);
      return id;
    };
    const confirmNames = (): void => {
      for (const [name, id] of this.addedNames) if (findName.get(name) !== id) this.names.delete(name);
      this.addedNames = [];
    };
    const hasOutgoing = db.prepare<[number], number>('SELECT 1 FROM edges WHERE source = ? LIMIT 1').pluck();
    const hasIncoming = db.prepare<[number], number>('SELECT 1 FROM edges WHERE target = ? LIMIT 1').pluck();
    const deleteUrn = db.prepare<[number]>('DELETE FROM edge_urns WHERE id = ?');
    // An urn no edge names any more leaves the dictionary (one probe of the key, one of the index).
    const release = (id: number): void => {
      if (hasOutgoing.get(id) === undefined && hasIncoming.get(id) === undefined) deleteUrn.run(id);
    };
    const aspectEdges = db
      .prepare<[number, number], [number, number, number | null, number | null]>(
        'SELECT relationship, target, created_at, created_actor FROM edges WHERE source = ? AND aspect = ?',
      )
      .raw();
    const deleteEdge = db.prepare<[number, number, number, number]>(
      'DELETE FROM edges WHERE source = ? AND aspect = ? AND relationship = ? AND target = ?',
    );
    const insert = db.prepare<[number, number, number, number, number | null, number | null]>(
      `INSERT OR REPLACE INTO edges (source, aspect, relationship, target, created_at, created_actor)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    // Only what changed is written: an entity written again with the same edges (a restore over an
    // existing index, a connector's next run) costs one read of its aspect's edges. At a million datasets
    // deleting and inserting every edge again, and probing each target for release, took a fifth of
    // a restore.
    this.replace = writeTransaction(db, (items: readonly EdgeReplacement[]) => {
      confirmNames();
      for (const { source: sourceUrn, aspect: aspectName, edges } of items) {
        const source = edges.length > 0 ? urnId(sourceUrn) : findUrn.get(sourceUrn);
        if (source === undefined) continue;
        const aspect = nameId(aspectName);
        const before = new Map<string, [number, number, number | null, number | null]>();
        for (const row of aspectEdges.all(source, aspect)) before.set(`${row[0]}:${row[1]}`, row);
        // By key, the last edge of a (relationship, target) wins, as INSERT OR REPLACE left it.
        const after = new Map<string, [number, number, number | null, number | null]>();
        for (const e of edges) {
          const relationship = nameId(e.relationship);
          const target = urnId(e.target);
          const actor = e.createdActor === undefined ? null : nameId(e.createdActor);
          after.set(`${relationship}:${target}`, [relationship, target, e.createdAt ?? null, actor]);
        }
        const released = new Set<number>();
        for (const [key, [relationship, target]] of before) {
          if (after.has(key)) continue;
          deleteEdge.run(source, aspect, relationship, target);
          released.add(target);
        }
        for (const [key, row] of after) {
          const old = before.get(key);
          if (old !== undefined && old[2] === row[2] && old[3] === row[3]) continue;
          insert.run(source, aspect, ...row);
        }
        if (released.size > 0 || after.size === 0) released.add(source);
        for (const id of released) release(id);
      }
    });
    const outgoing = db
      .prepare<[number], number>('SELECT DISTINCT target FROM edges WHERE source = ?')
      .pluck();
    const incoming = db
      .prepare<[number], number>('SELECT DISTINCT source FROM edges WHERE target = ?')
      .pluck();
    const deleteFrom = db.prepare<[number]>('DELETE FROM edges WHERE source = ?');
    const deleteTo = db.prepare<[number]>('DELETE FROM edges WHERE target = ?');
    this.remove = writeTransaction(db, (urn: string) => {
      const id = findUrn.get(urn);
      if (id === undefined) return;
      const others = [...outgoing.all(id), ...incoming.all(id)];
      deleteFrom.run(id);
      deleteTo.run(id);
      for (const other of new Set([id, ...others])) release(other);
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
    const typeSql =
      types.length === 0
        ? ''
        : ` AND e.relationship IN (SELECT id FROM edge_names WHERE name IN (${types.map(() => '?').join(', ')}))`;
    const where = `e.${self} = (SELECT id FROM edge_urns WHERE urn = ?)${typeSql}`;
    const params = [request.urn, ...types];
    const total =
      this.queries.get1<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM edges e WHERE ${where} GROUP BY e.${other}, e.relationship)`,
        params,
      )?.n ?? 0;
    // The page is chosen from the (entity, type) id pairs, which the index covers, ordered by their
    // texts (ids do not follow urn order, so every pair's urn is read and sorted); only the page's
    // edges are then read for who created them. The actor is the bare column of the row whose
    // created_at is the MIN (SQLite's rule for one MIN aggregate).
    const rows =
      request.count === 0
        ? []
        : this.queries.all<RelatedRow>(
            `WITH page AS MATERIALIZED (
               SELECT g.other AS other, g.relationship AS relationship, o.urn AS entity, r.name AS type
               FROM (SELECT DISTINCT e.${other} AS other, e.relationship AS relationship FROM edges e
                     WHERE ${where}) g
               JOIN edge_urns o ON o.id = g.other JOIN edge_names r ON r.id = g.relationship
               ORDER BY o.urn, r.name LIMIT ? OFFSET ?)
             SELECT p.type AS type, p.entity AS entity,
                    MIN(CASE WHEN e.created_actor IS NOT NULL THEN e.created_at END) AS time, c.name AS actor
             FROM page p
             JOIN edges e ON e.${self} = (SELECT id FROM edge_urns WHERE urn = ?)
               AND e.${other} = p.other AND e.relationship = p.relationship
             LEFT JOIN edge_names c ON c.id = e.created_actor
             GROUP BY p.other, p.relationship ORDER BY p.entity, p.type`,
            [...params, request.count, request.start, request.urn],
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

  /**
   * Distinct (source, relationship, target) texts in byte order (SQLite's BINARY collation compares
   * UTF-8 bytes), after the position; an entity type is matched as the urn's `urn:li:<type>:` prefix.
   */
  async scrollEdges(request: EdgeScrollRequest): Promise<readonly EdgeKey[]> {
    if (request.count <= 0) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    const types = [...new Set(request.types)];
    if (types.length > 0) {
      where.push(`r.name IN (${types.map(() => '?').join(', ')})`);
      params.push(...types);
    }
    const side = (column: string, filter: EdgeEndpointFilter | undefined): string[] => {
      const parts: string[] = [];
      if (filter?.urns !== undefined) {
        parts.push(
          filter.urns.length === 0 ? '0' : `${column} IN (${filter.urns.map(() => '?').join(', ')})`,
        );
        params.push(...filter.urns);
      }
      if (filter?.entityTypes !== undefined) {
        const prefixes = filter.entityTypes.map((t) => `urn:li:${t}:`);
        parts.push(
          prefixes.length === 0 ? '0' : `(${prefixes.map(() => `substr(${column}, 1, ?) = ?`).join(' OR ')})`,
        );
        for (const p of prefixes) params.push(p.length, p);
      }
      return parts;
    };
    if (request.match.length > 0) {
      const alternatives = request.match.map((m) => {
        const parts = [...side('s.urn', m.source), ...side('t.urn', m.target)];
        return parts.length === 0 ? '1' : `(${parts.join(' AND ')})`;
      });
      where.push(`(${alternatives.join(' OR ')})`);
    }
    if (request.after !== undefined) {
      where.push('(s.urn, r.name, t.urn) > (?, ?, ?)');
      params.push(request.after.source, request.after.relationship, request.after.target);
    }
    return this.queries.all<EdgeKey>(
      `SELECT DISTINCT s.urn AS source, r.name AS relationship, t.urn AS target
       FROM edges e
       JOIN edge_urns s ON s.id = e.source
       JOIN edge_names r ON r.id = e.relationship
       JOIN edge_urns t ON t.id = e.target
       ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
       ORDER BY s.urn, r.name, t.urn LIMIT ?`,
      [...params, request.count],
    );
  }

  async refresh(): Promise<void> {}

  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.handle.release();
  }
}
