import type Database from 'better-sqlite3';

/** Entries a cache keeps before it starts over: actors can be many (one per user who writes). */
const MAX_ENTRIES = 10_000;

/**
 * The ids of one dictionary of few texts (aspect_names, actors: see keyed-by-ids.ts), cached both
 * ways on this connection, so the hot paths (a point read, a write of version 0) neither join the
 * dictionary nor run a statement to make sure its row exists.
 *
 * An id, once committed, names its text for good: these dictionaries' rows are never deleted or
 * changed, by this process or another, so a cached pair stays true. An id this connection added in
 * a transaction that then rolled back is not committed, and SQLite may give it to another text: the
 * store calls forget() when a transaction fails.
 */
export class DictionaryCache {
  private readonly ids = new Map<string, number>();
  private readonly texts = new Map<number, string>();
  private readonly idOf: Database.Statement<[string], { id: number }>;
  private readonly textOf: Database.Statement<[number], { text: string }>;
  private readonly insert: Database.Statement<[string]>;

  constructor(db: Database.Database, table: string, column: string) {
    this.idOf = db.prepare(`SELECT id FROM ${table} WHERE ${column} = ?`);
    this.textOf = db.prepare(`SELECT ${column} AS text FROM ${table} WHERE id = ?`);
    this.insert = db.prepare(`INSERT INTO ${table} (${column}) VALUES (?)`);
  }

  /** The id of `text`, or undefined when the dictionary does not have it. */
  find(text: string): number | undefined {
    const cached = this.ids.get(text);
    if (cached !== undefined) return cached;
    const id = this.idOf.get(text)?.id;
    if (id !== undefined) this.remember(id, text);
    return id;
  }

  /** The id of `text`, added to the dictionary when missing; inside a write transaction only. */
  ensure(text: string): number {
    const found = this.find(text);
    if (found !== undefined) return found;
    const id = Number(this.insert.run(text).lastInsertRowid);
    this.remember(id, text);
    return id;
  }

  /** The text of an id read from a row. */
  text(id: number): string {
    const cached = this.texts.get(id);
    if (cached !== undefined) return cached;
    const text = this.textOf.get(id)?.text;
    // A row naming an id the dictionary lacks: only a file edited behind the store's back.
    if (text === undefined) throw new Error(`the aspect store file has no dictionary row ${id}`);
    this.remember(id, text);
    return text;
  }

  /** Drops every cached pair: a transaction that may have added ids rolled back. */
  forget(): void {
    this.ids.clear();
    this.texts.clear();
  }

  private remember(id: number, text: string): void {
    if (this.ids.size >= MAX_ENTRIES) this.forget();
    this.ids.set(text, id);
    this.texts.set(id, text);
  }
}
