import type Database from 'better-sqlite3';

/**
 * A write transaction that takes SQLite's write lock when it begins (BEGIN IMMEDIATE). Another
 * connection's writer (the indexer thread, a system-update job beside a running catalog) is then waited
 * for (busy_timeout); a deferred transaction that read first and writes next would instead fail at once
 * with SQLITE_BUSY ("database is locked"), as SQLite cannot wait for a read to become a write. Nested in
 * another transaction, it runs as a savepoint of that one.
 */
export function writeTransaction<A extends unknown[], R>(
  db: Database.Database,
  body: (...args: A) => R,
): (...args: A) => R {
  const transaction = db.transaction(body);
  return (...args: A) => transaction.immediate(...args);
}
