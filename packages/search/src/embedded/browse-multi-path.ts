import type Database from 'better-sqlite3';
import { normalizeBrowsePath } from '../default-browse-path.js';
import type { ConversionLogger } from './text-index-conversion.js';

/**
 * Browse counts the distinct entities under a path. A document listed under one browse path has
 * exactly one `browse` row under each path above its folder (a group row) and one in the folder (its
 * leaf row), so its rows count it once; only a document under several paths can have two rows under
 * one parent. Its rows are marked `multi` = 1, and browse counts the rows of the others and the
 * distinct documents of the marked rows (see sqlite-browse.ts): COUNT(DISTINCT doc) over every row
 * under a platform at a million datasets took most of the 100 ms of an uncached browse.
 */
export function isMultiPath(paths: readonly unknown[]): boolean {
  if (paths.length < 2) return false;
  const distinct = new Set(paths.map((p) => normalizeBrowsePath(String(p))));
  return distinct.size > 1;
}

/**
 * Adds `multi` to a file made before it, marking the documents with more than one leaf row (one per
 * distinct browse path: the leaf row's segment is the entity's name, the same on every path). One
 * transaction: a crash leaves the file without the column, and the next open starts over.
 */
export function migrateBrowseMulti(db: Database.Database, logger?: ConversionLogger): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(browse)').all();
  if (columns.some((c) => c.name === 'multi')) return;
  const started = performance.now();
  db.transaction(() => {
    db.exec('ALTER TABLE browse ADD COLUMN multi INTEGER NOT NULL DEFAULT 0');
    const marked = db
      .prepare(
        `UPDATE browse SET multi = 1
         WHERE doc IN (SELECT doc FROM browse WHERE leaf = 1 GROUP BY doc HAVING COUNT(*) > 1)`,
      )
      .run().changes;
    logger?.info(
      { rows: marked, ms: Math.round(performance.now() - started) },
      'marked the browse rows of documents under several browse paths',
    );
  })();
}
