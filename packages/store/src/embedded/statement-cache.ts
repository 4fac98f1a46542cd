import type Database from 'better-sqlite3';

/** Bound on cached statements: IN lists of many lengths must not grow the cache without limit. */
const MAX_STATEMENTS = 128;

/**
 * Prepared statements for queries whose SQL varies (IN lists, optional filters), cached by text.
 * Evicts the least recently used, relying on Map keeping insertion order.
 */
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
}
