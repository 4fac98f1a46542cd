import type Database from 'better-sqlite3';
import type { BrowseRow, ValRow } from './derived-rows.js';
import { KeyedValueIds } from './keyed-value-ids.js';

/** Rows per multi-row INSERT into `vals`: one statement per chunk instead of one per value. */
const VALS_PER_INSERT = 64;

/**
 * Adds and deletes a document's `vals` and `browse` rows (derived-rows.ts), by their full keys: deletes
 * are given the rows the document derived (`browse` has no index by document).
 */
export class DerivedRowStore {
  readonly ids: KeyedValueIds;
  private readonly insertVals = new Map<number, Database.Statement<unknown[]>>();
  private readonly deleteVal: Database.Statement<[number, number, number]>;
  private readonly insertBrowse: Database.Statement<[string, string, number, string, number, number, number]>;
  private readonly deleteBrowse: Database.Statement<[string, string, number, string, number]>;

  constructor(private readonly db: Database.Database) {
    this.ids = new KeyedValueIds(db);
    this.deleteVal = db.prepare('DELETE FROM vals WHERE field = ? AND value = ? AND doc = ?');
    this.insertBrowse = db.prepare(
      `INSERT OR IGNORE INTO browse (entity_type, parent, leaf, segment, doc, removed, multi)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteBrowse = db.prepare(
      'DELETE FROM browse WHERE entity_type = ? AND parent = ? AND leaf = ? AND segment = ? AND doc = ?',
    );
  }

  /** Inserts `vals` rows (distinct by field and value, as valRowsOf gives them) in multi-row statements. */
  addVals(id: number, entityType: string, rows: readonly ValRow[]): void {
    for (let at = 0; at < rows.length; at += VALS_PER_INSERT) {
      const chunk = rows.slice(at, at + VALS_PER_INSERT);
      const params: number[] = [];
      for (const row of chunk) {
        const field = this.ids.field(entityType, row.field);
        params.push(field, this.ids.value(field, row.value, row.num), id);
      }
      this.insertValsStatement(chunk.length).run(...params);
    }
  }

  /** Deletes `vals` rows of a document (and each value no other document holds any more). */
  deleteVals(id: number, entityType: string, rows: readonly ValRow[]): void {
    for (const row of rows) {
      const field = this.ids.existingField(entityType, row.field);
      const value = field === undefined ? undefined : this.ids.existingValue(field, row.value, row.num);
      if (field === undefined || value === undefined) continue;
      this.deleteVal.run(field, value, id);
      this.ids.release(field, value);
    }
  }

  addBrowse(id: number, entityType: string, rows: readonly BrowseRow[], removed: number): void {
    for (const row of rows)
      this.insertBrowse.run(entityType, row.parent, row.leaf, row.segment, id, removed, row.multi);
  }

  deleteBrowseRows(id: number, entityType: string, rows: readonly BrowseRow[]): void {
    for (const row of rows) this.deleteBrowse.run(entityType, row.parent, row.leaf, row.segment, id);
  }

  private insertValsStatement(rows: number): Database.Statement<unknown[]> {
    let statement = this.insertVals.get(rows);
    if (statement === undefined) {
      statement = this.db.prepare(
        `INSERT OR IGNORE INTO vals (field, value, doc) VALUES ${Array.from(
          { length: rows },
          () => '(?, ?, ?)',
        ).join(', ')}`,
      );
      this.insertVals.set(rows, statement);
    }
    return statement;
  }
}
