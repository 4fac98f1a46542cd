import type Database from 'better-sqlite3';
import type { ConversionLogger } from './text-index-conversion.js';

/**
 * Browse without a filter reads its counts from two aggregate tables of `browse` instead of counting
 * the rows under the path (at a million datasets a platform has ~167,000 rows under it: an uncached
 * browse of it took 45 ms warm, 124 ms from disk):
 * - `browse_groups`: per (entity_type, parent, segment), `live` = the rows with leaf = 0 and
 *   removed = 0 (the count of the group `segment` at `parent`);
 * - `browse_totals`: per (entity_type, parent), `leaves` = the rows with leaf = 1 and removed = 0
 *   (totalEntities), `single` = the rows with removed = 0 and multi = 0 (totalNumEntities, but for
 *   the documents under several paths, which browse counts distinct through `browse_multi`).
 * A row whose counts all reach 0 is deleted, so both tables hold exactly what GROUP BY over `browse`
 * gives.
 *
 * Triggers on `browse` keep them, so every writer (the document writer, the derived-rows rebuild,
 * conversions) does without knowing them. Inserts and deletes count; an update of a counted column
 * (the writer does not update rows, migrateBrowseMulti does) counts as a delete and an insert. Not
 * covered: INSERT OR REPLACE into `browse`, whose implicit deletes fire no trigger unless
 * recursive_triggers is on (nothing writes `browse` that way); and DELETE FROM browse without WHERE
 * keeps firing them (SQLite skips its truncate optimization for a table with triggers).
 */
const TABLES = `
  CREATE TABLE browse_groups (
    entity_type TEXT NOT NULL,
    parent TEXT NOT NULL,
    segment TEXT NOT NULL,
    live INTEGER NOT NULL,
    PRIMARY KEY (entity_type, parent, segment)
  ) WITHOUT ROWID;
  CREATE TABLE browse_totals (
    entity_type TEXT NOT NULL,
    parent TEXT NOT NULL,
    leaves INTEGER NOT NULL,
    single INTEGER NOT NULL,
    PRIMARY KEY (entity_type, parent)
  ) WITHOUT ROWID;
`;

/** Counted in browse_groups / browse_totals, for a row R (NEW or OLD). */
const inGroups = (r: string) => `${r}.leaf = 0 AND ${r}.removed = 0`;
const inTotals = (r: string) => `${r}.removed = 0 AND (${r}.leaf = 1 OR ${r}.multi = 0)`;

const addGroup = `
  INSERT INTO browse_groups (entity_type, parent, segment, live)
    SELECT NEW.entity_type, NEW.parent, NEW.segment, 1 WHERE ${inGroups('NEW')}
    ON CONFLICT (entity_type, parent, segment) DO UPDATE SET live = live + 1;`;
const removeGroup = `
  UPDATE browse_groups SET live = live - 1
    WHERE entity_type = OLD.entity_type AND parent = OLD.parent AND segment = OLD.segment
      AND ${inGroups('OLD')};
  DELETE FROM browse_groups
    WHERE entity_type = OLD.entity_type AND parent = OLD.parent AND segment = OLD.segment
      AND live = 0 AND ${inGroups('OLD')};`;
const addTotals = `
  INSERT INTO browse_totals (entity_type, parent, leaves, single)
    SELECT NEW.entity_type, NEW.parent, NEW.leaf = 1, NEW.multi = 0 WHERE ${inTotals('NEW')}
    ON CONFLICT (entity_type, parent) DO UPDATE
      SET leaves = leaves + excluded.leaves, single = single + excluded.single;`;
const removeTotals = `
  UPDATE browse_totals SET leaves = leaves - (OLD.leaf = 1), single = single - (OLD.multi = 0)
    WHERE entity_type = OLD.entity_type AND parent = OLD.parent AND ${inTotals('OLD')};
  DELETE FROM browse_totals
    WHERE entity_type = OLD.entity_type AND parent = OLD.parent AND leaves = 0 AND single = 0
      AND ${inTotals('OLD')};`;

/** The triggers by name: one per table and statement kind, so a WHEN skips the rows not counted. */
export const BROWSE_COUNT_TRIGGERS: Readonly<Record<string, string>> = {
  browse_groups_insert: `AFTER INSERT ON browse WHEN ${inGroups('NEW')} BEGIN ${addGroup} END`,
  browse_groups_delete: `AFTER DELETE ON browse WHEN ${inGroups('OLD')} BEGIN ${removeGroup} END`,
  // The new row counted first: an update within one group does not delete and re-insert it.
  browse_groups_update: `AFTER UPDATE OF entity_type, parent, leaf, segment, removed ON browse
    WHEN (${inGroups('OLD')}) OR (${inGroups('NEW')}) BEGIN ${addGroup} ${removeGroup} END`,
  browse_totals_insert: `AFTER INSERT ON browse WHEN ${inTotals('NEW')} BEGIN ${addTotals} END`,
  browse_totals_delete: `AFTER DELETE ON browse WHEN ${inTotals('OLD')} BEGIN ${removeTotals} END`,
  browse_totals_update: `AFTER UPDATE OF entity_type, parent, leaf, removed, multi ON browse
    WHEN (${inTotals('OLD')}) OR (${inTotals('NEW')}) BEGIN ${addTotals} ${removeTotals} END`,
};

/**
 * The rows of documents under several paths, by path and document, for browse's distinct count of
 * them (sqlite-browse.ts); `removed` before `doc` so that the count reads the index alone.
 */
const MULTI_INDEX = `
  CREATE INDEX IF NOT EXISTS browse_multi ON browse (entity_type, parent, removed, doc) WHERE multi = 1`;

/** browse_groups and browse_totals as GROUP BY over `browse` gives them (the fill, and tests). */
export const BROWSE_GROUPS_OF_ROWS = `
  SELECT entity_type, parent, segment, COUNT(*) AS live FROM browse
  WHERE leaf = 0 AND removed = 0 GROUP BY entity_type, parent, segment`;
export const BROWSE_TOTALS_OF_ROWS = `
  SELECT entity_type, parent, SUM(leaf = 1) AS leaves, SUM(multi = 0) AS single FROM browse
  WHERE removed = 0 AND (leaf = 1 OR multi = 0) GROUP BY entity_type, parent`;

/**
 * Creates the aggregate tables, their triggers and `browse_multi`, filled from `browse`: at a new
 * file's creation (empty), and at the open of a file made before them (or missing any of them). One
 * transaction: a crash leaves the file without them, and the next open starts over. Needs
 * `browse.multi` (migrateBrowseMulti first).
 */
export function migrateBrowseCounts(db: Database.Database, logger?: ConversionLogger): void {
  db.exec(MULTI_INDEX);
  const expected = ['browse_groups', 'browse_totals', ...Object.keys(BROWSE_COUNT_TRIGGERS)];
  const present = new Set(
    db
      .prepare<[], string>(
        `SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')
         AND name IN (${expected.map((n) => `'${n}'`).join(', ')})`,
      )
      .pluck()
      .all(),
  );
  if (expected.every((name) => present.has(name))) return;
  const started = performance.now();
  db.transaction(() => {
    for (const name of Object.keys(BROWSE_COUNT_TRIGGERS)) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
    db.exec('DROP TABLE IF EXISTS browse_groups; DROP TABLE IF EXISTS browse_totals');
    db.exec(TABLES);
    const groups = db.prepare(`INSERT INTO browse_groups ${BROWSE_GROUPS_OF_ROWS}`).run().changes;
    const totals = db.prepare(`INSERT INTO browse_totals ${BROWSE_TOTALS_OF_ROWS}`).run().changes;
    for (const [name, body] of Object.entries(BROWSE_COUNT_TRIGGERS))
      db.exec(`CREATE TRIGGER ${name} ${body}`);
    if (groups + totals > 0)
      logger?.info(
        { groups, totals, ms: Math.round(performance.now() - started) },
        'counted the browse rows by path',
      );
  })();
}
