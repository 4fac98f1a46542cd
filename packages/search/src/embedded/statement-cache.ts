import type Database from 'better-sqlite3';

/** Bound on cached statements, so queries of many shapes do not grow the cache without limit. */
const MAX_STATEMENTS = 256;

/** Prepared statements for queries whose SQL varies with the request, cached by text (LRU). */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();

  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement<unknown[], unknown> {
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare<unknown[], unknown>(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > MAX_STATEMENTS) {
      const oldest = this.statements.keys().next();
      if (oldest.done !== true) this.statements.delete(oldest.value);
    }
    return statement;
  }

  all<Row>(sql: string, params: readonly unknown[]): Row[] {
    return this.get(sql).all(...params) as Row[];
  }

  get1<Row>(sql: string, params: readonly unknown[]): Row | undefined {
    return this.get(sql).get(...params) as Row | undefined;
  }
}
