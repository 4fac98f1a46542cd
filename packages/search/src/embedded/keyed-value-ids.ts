import type Database from 'better-sqlite3';

/** Values remembered within one write transaction at most; past it the memory starts over. */
const MAX_CACHED_VALUES = 50_000;

/**
 * The writer's side of the `val_fields` / `val_values` dictionaries (keyed-values-schema.ts): the id of
 * a field or value, added when missing, and a value's removal once no document holds it. Field ids are
 * never deleted, so they are remembered for good, once committed: a field added by a transaction that
 * rolled back is not in the file, and SQLite may give its id to another field, so the fields added in
 * one transaction are checked at the start of the next (`begin`). Value ids are remembered within one
 * write transaction only: another connection's writer may delete a value between two transactions, and
 * SQLite may then hand its id to another value.
 */
export class KeyedValueIds {
  private readonly fields = new Map<string, number>();
  /** Fields this connection added since the last `begin`, as [entity type, field, id]. */
  private added: [string, string, number][] = [];
  private readonly values = new Map<string, number>();
  /** The key of each remembered value id, to forget a value deleted by its id. */
  private readonly keys = new Map<number, string>();
  private readonly findField: Database.Statement<[string, string], number>;
  private readonly insertField: Database.Statement<[string, string]>;
  private readonly findValue: Database.Statement<[number, string, number | null], number>;
  private readonly insertValue: Database.Statement<[number, string, number | null]>;
  private readonly valueHeld: Database.Statement<[number, number], number>;
  private readonly deleteValue: Database.Statement<[number]>;

  constructor(db: Database.Database) {
    this.findField = db
      .prepare<[string, string], number>('SELECT id FROM val_fields WHERE entity_type = ? AND field = ?')
      .pluck();
    this.insertField = db.prepare('INSERT INTO val_fields (entity_type, field) VALUES (?, ?)');
    this.findValue = db
      .prepare<[number, string, number | null], number>(
        'SELECT id FROM val_values WHERE field = ? AND value = ? AND num IS ?',
      )
      .pluck();
    this.insertValue = db.prepare('INSERT INTO val_values (field, value, num) VALUES (?, ?, ?)');
    this.valueHeld = db
      .prepare<[number, number], number>('SELECT 1 FROM vals WHERE field = ? AND value = ? LIMIT 1')
      .pluck();
    this.deleteValue = db.prepare('DELETE FROM val_values WHERE id = ?');
  }

  /**
   * Call at the start of each write transaction: value ids read before may have changed since, and the
   * fields added by the last transaction are forgotten unless it committed them.
   */
  begin(): void {
    this.forgetValues();
    for (const [entityType, field, id] of this.added)
      if (this.findField.get(entityType, field) !== id) this.fields.delete(`${entityType}\u0000${field}`);
    this.added = [];
  }

  /** The field's id, added when missing. */
  field(entityType: string, field: string): number {
    const key = `${entityType}\u0000${field}`;
    let id = this.fields.get(key) ?? this.findField.get(entityType, field);
    if (id === undefined) {
      id = Number(this.insertField.run(entityType, field).lastInsertRowid);
      this.added.push([entityType, field, id]);
    }
    this.fields.set(key, id);
    return id;
  }

  /** The field's id, undefined when no value of it was ever written. */
  existingField(entityType: string, field: string): number | undefined {
    const key = `${entityType}\u0000${field}`;
    const id = this.fields.get(key) ?? this.findField.get(entityType, field);
    if (id !== undefined) this.fields.set(key, id);
    return id;
  }

  /** The value's id, added when missing. */
  value(field: number, value: string, num: number | null): number {
    const key = valueKey(field, value, num);
    let id = this.values.get(key) ?? this.findValue.get(field, value, num);
    if (id === undefined) id = Number(this.insertValue.run(field, value, num).lastInsertRowid);
    this.remember(key, id);
    return id;
  }

  /** The value's id, undefined when no document holds it. */
  existingValue(field: number, value: string, num: number | null): number | undefined {
    const key = valueKey(field, value, num);
    const id = this.values.get(key) ?? this.findValue.get(field, value, num);
    if (id !== undefined) this.remember(key, id);
    return id;
  }

  /**
   * Call after deleting `vals` rows of the value: deletes it when no document holds it any more (one
   * probe of the `vals` key), so the dictionary does not keep every name and urn ever written.
   */
  release(field: number, valueId: number): void {
    if (this.valueHeld.get(field, valueId) !== undefined) return;
    this.deleteValue.run(valueId);
    // Its id may be handed out again: forget the value.
    const key = this.keys.get(valueId);
    if (key !== undefined) this.values.delete(key);
    this.keys.delete(valueId);
  }

  private forgetValues(): void {
    this.values.clear();
    this.keys.clear();
  }

  private remember(key: string, id: number): void {
    if (this.values.size >= MAX_CACHED_VALUES) this.forgetValues();
    this.values.set(key, id);
    this.keys.set(id, key);
  }
}

function valueKey(field: number, value: string, num: number | null): string {
  return `${field}\u0000${num === null ? 't' : 'n'}\u0000${value}`;
}
