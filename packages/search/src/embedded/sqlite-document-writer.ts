import type Database from 'better-sqlite3';
import { ValidationError } from '@catalog/model';
import { normalizeBrowsePath } from '../default-browse-path.js';
import { BROWSE_PATHS_FIELD, REMOVED_FIELD } from '../document-fields.js';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { columnText, indexedEntity, valuesOf, type IndexedEntity } from './indexed-entity.js';
import { ftsTableOf } from './sqlite-search-schema.js';

interface DocRow {
  readonly id: number;
  readonly doc: string;
}

/** Writes entity documents into docs / vals / browse / FTS, and keeps the index specs. */
export class SqliteDocumentWriter {
  private readonly entities = new Map<string, IndexedEntity>();
  private readonly upsertDoc: Database.Statement<[string, string, number, string], { id: number }>;
  private readonly findDoc: Database.Statement<[string, string], { id: number }>;
  private readonly deleteDoc: Database.Statement<[number]>;
  private readonly insertVal: Database.Statement<[number, string, string, number | null, string, number]>;
  private readonly deleteVals: Database.Statement<[number]>;
  private readonly insertBrowse: Database.Statement<[string, string, number, string, number, number]>;
  private readonly deleteBrowse: Database.Statement<[number]>;
  private readonly ftsStatements = new Map<
    string,
    { insert: Database.Statement; remove: Database.Statement }
  >();
  private readonly writeBatch: (documents: readonly EntityDocument[]) => void;
  private readonly deleteBatch: (refs: readonly { entityType: string; urn: string }[]) => void;

  constructor(private readonly db: Database.Database) {
    for (const row of db.prepare<[], { spec: string }>('SELECT spec FROM index_specs').all()) {
      const spec = JSON.parse(row.spec) as EntityIndexSpec;
      this.entities.set(spec.entityType, indexedEntity(spec));
    }
    this.upsertDoc = db.prepare(
      `INSERT INTO docs (entity_type, urn, removed, doc) VALUES (?, ?, ?, ?)
       ON CONFLICT (entity_type, urn) DO UPDATE SET removed = excluded.removed, doc = excluded.doc
       RETURNING id`,
    );
    this.findDoc = db.prepare('SELECT id FROM docs WHERE entity_type = ? AND urn = ?');
    this.deleteDoc = db.prepare('DELETE FROM docs WHERE id = ?');
    this.insertVal = db.prepare(
      'INSERT OR IGNORE INTO vals (doc, field, value, num, entity_type, removed) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.deleteVals = db.prepare('DELETE FROM vals WHERE doc = ?');
    this.insertBrowse = db.prepare(
      'INSERT OR IGNORE INTO browse (entity_type, parent, leaf, segment, doc, removed) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.deleteBrowse = db.prepare('DELETE FROM browse WHERE doc = ?');
    this.writeBatch = db.transaction((documents: readonly EntityDocument[]) => {
      for (const document of documents) this.writeOne(document);
    });
    this.deleteBatch = db.transaction((refs: readonly { entityType: string; urn: string }[]) => {
      for (const ref of refs) {
        const row = this.findDoc.get(ref.entityType, ref.urn);
        if (row !== undefined) this.removeRows(ref.entityType, row.id, true);
      }
    });
  }

  entity(entityType: string): IndexedEntity | undefined {
    return this.entities.get(entityType) ?? this.reloadSpec(entityType);
  }

  /** Creates or updates the entity type's index; rebuilds its FTS table when the full-text columns change. */
  ensureIndex(spec: EntityIndexSpec): void {
    const table = ftsTableOf(spec.entityType);
    const next = indexedEntity(spec);
    const columnsKey = JSON.stringify(next.columns);
    const stored = this.db
      .prepare<[string], { fts_columns: string }>('SELECT fts_columns FROM index_specs WHERE entity_type = ?')
      .get(spec.entityType);
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO index_specs (entity_type, spec, fts_columns) VALUES (?, ?, ?)
           ON CONFLICT (entity_type) DO UPDATE SET spec = excluded.spec, fts_columns = excluded.fts_columns`,
        )
        .run(spec.entityType, JSON.stringify(spec), columnsKey);
      this.entities.set(spec.entityType, next);
      this.ftsStatements.delete(spec.entityType);
      if (stored?.fts_columns === columnsKey) {
        this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(${ftsColumnsDdl(next)})`);
        return;
      }
      this.db.exec(`DROP TABLE IF EXISTS ${table}`);
      this.db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(${ftsColumnsDdl(next)})`);
      const rows = this.db
        .prepare<[string], DocRow>('SELECT id, doc FROM docs WHERE entity_type = ?')
        .iterate(spec.entityType);
      const fts = this.fts(spec.entityType, next);
      for (const row of rows) {
        const fields = JSON.parse(row.doc) as EntityDocument['fields'];
        fts.insert.run(row.id, ...next.columns.map((c) => columnText(c, fields)));
      }
    })();
  }

  /** Drops the entity type's documents, FTS table and spec. */
  deleteIndex(entityType: string): void {
    this.db.transaction(() => {
      const ids = this.db
        .prepare<[string], { id: number }>('SELECT id FROM docs WHERE entity_type = ?')
        .all(entityType);
      for (const { id } of ids) this.removeRows(entityType, id, false);
      this.db.exec(`DROP TABLE IF EXISTS ${ftsTableOf(entityType)}`);
      this.db.prepare('DELETE FROM index_specs WHERE entity_type = ?').run(entityType);
      this.entities.delete(entityType);
      this.ftsStatements.delete(entityType);
    })();
  }

  upsert(documents: readonly EntityDocument[]): void {
    for (const document of documents) this.requireEntity(document.entityType);
    this.writeBatch(documents);
  }

  delete(refs: readonly { entityType: string; urn: string }[]): void {
    this.deleteBatch(refs);
  }

  requireEntity(entityType: string): IndexedEntity {
    const entity = this.entities.get(entityType) ?? this.reloadSpec(entityType);
    if (entity === undefined)
      throw new ValidationError(`Unknown entity type: ${entityType} (no index; run ensureIndex)`);
    return entity;
  }

  /** Another connection (the indexer's thread or process) may have created the index since we opened the file. */
  private reloadSpec(entityType: string): IndexedEntity | undefined {
    const row = this.db
      .prepare<[string], { spec: string }>('SELECT spec FROM index_specs WHERE entity_type = ?')
      .get(entityType);
    if (!row) return undefined;
    const entity = indexedEntity(JSON.parse(row.spec) as EntityIndexSpec);
    this.entities.set(entityType, entity);
    return entity;
  }

  private writeOne(document: EntityDocument): void {
    const entity = this.requireEntity(document.entityType);
    const { fields } = document;
    const removed = valuesOf(fields[REMOVED_FIELD]).includes(true) ? 1 : 0;
    const row = this.upsertDoc.get(document.entityType, document.urn, removed, JSON.stringify(fields));
    if (row === undefined) throw new Error(`upsert of ${document.urn} returned no id`);
    const id = row.id;
    this.removeRows(document.entityType, id, false);
    for (const [field, value] of Object.entries(fields)) {
      if (!entity.keyed.has(field)) continue;
      for (const v of valuesOf(value)) {
        const num = typeof v === 'number' ? v : null;
        this.insertVal.run(id, field, String(v), num, document.entityType, removed);
      }
    }
    for (const path of valuesOf(fields[BROWSE_PATHS_FIELD]))
      this.writeBrowsePath(document.entityType, id, String(path), removed);
    this.fts(document.entityType, entity).insert.run(id, ...entity.columns.map((c) => columnText(c, fields)));
  }

  private writeBrowsePath(entityType: string, id: number, raw: string, removed: number): void {
    const segments = normalizeBrowsePath(raw).split('/').slice(1);
    let parent = '';
    segments.forEach((segment, i) => {
      const leaf = i === segments.length - 1 ? 1 : 0;
      this.insertBrowse.run(entityType, parent, leaf, segment, id, removed);
      parent = `${parent}/${segment}`;
    });
  }

  private removeRows(entityType: string, id: number, andDocument: boolean): void {
    this.deleteVals.run(id);
    this.deleteBrowse.run(id);
    const entity = this.entities.get(entityType);
    if (entity !== undefined) this.fts(entityType, entity).remove.run(id);
    if (andDocument) this.deleteDoc.run(id);
  }

  private fts(
    entityType: string,
    entity: IndexedEntity,
  ): { insert: Database.Statement; remove: Database.Statement } {
    let statements = this.ftsStatements.get(entityType);
    if (statements === undefined) {
      const table = ftsTableOf(entityType);
      const names = entity.columns.map((_, i) => `c${i}`);
      statements = {
        insert: this.db.prepare(
          `INSERT INTO ${table} (rowid${names.map((n) => `, ${n}`).join('')}) VALUES (?${names.map(() => ', ?').join('')})`,
        ),
        remove: this.db.prepare(`DELETE FROM ${table} WHERE rowid = ?`),
      };
      this.ftsStatements.set(entityType, statements);
    }
    return statements;
  }
}

/** Column list and options of an FTS table: unicode61 words (diacritics folded), prefix indexes. */
function ftsColumnsDdl(entity: IndexedEntity): string {
  const names = entity.columns.length === 0 ? ['c0'] : entity.columns.map((_, i) => `c${i}`);
  return `${names.join(', ')}, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='3'`;
}
