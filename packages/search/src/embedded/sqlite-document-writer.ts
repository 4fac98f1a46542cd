import type Database from 'better-sqlite3';
import { ValidationError } from '@catalog/model';
import { browseEntityName, normalizeBrowsePath } from '../default-browse-path.js';
import { isMultiPath } from './browse-multi-path.js';
import { BROWSE_PATHS_FIELD, NAME_FIELD, REMOVED_FIELD, URN_FIELD } from '../document-fields.js';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { valKey, valRowsOf, type ValRow } from './derived-rows.js';
import { REPLAY_AT_MOST } from './doc-change-feed.js';
import { indexedEntity, valuesOf, type IndexedEntity } from './indexed-entity.js';
import { KeyedValueIds } from './keyed-value-ids.js';
import { ftsTableOf } from './sqlite-search-schema.js';
import { decodeDocument, encodeDocument } from './stored-document.js';
import { columnTexts, documentWords } from './text-document-words.js';
import { TextIndexWriter } from './text-index-writer.js';
import { writeTransaction } from './write-transaction.js';

interface DocRow {
  readonly id: number;
  /** The stored form (stored-document.ts). */
  readonly doc: string | Uint8Array;
}

interface StoredDocRow extends DocRow {
  readonly removed: number;
  readonly text_length: number;
}

type Fields = EntityDocument['fields'];

/** Rows per multi-row INSERT into `vals`: one statement per chunk instead of one per value. */
const VALS_PER_INSERT = 64;

/** Writes entity documents into docs / vals / browse / the text index, and keeps the index specs. */
export class SqliteDocumentWriter {
  private readonly entities = new Map<string, IndexedEntity>();
  private readonly insertDoc: Database.Statement<[string, string, number, Buffer, number, number]>;
  private readonly updateDoc: Database.Statement<[number, Buffer, number]>;
  private readonly updateDocText: Database.Statement<[number, number, number]>;
  private readonly findDoc: Database.Statement<[string, string], StoredDocRow>;
  private readonly deleteDoc: Database.Statement<[number]>;
  private readonly insertVals = new Map<number, Database.Statement<unknown[]>>();
  private readonly ids: KeyedValueIds;
  private readonly deleteVal: Database.Statement<[number, number, number]>;
  private readonly docVals: Database.Statement<[number], { field: number; value: number }>;
  private readonly deleteVals: Database.Statement<[number]>;
  private readonly insertBrowse: Database.Statement<[string, string, number, string, number, number, number]>;
  private readonly deleteBrowse: Database.Statement<[number]>;
  private readonly text: TextIndexWriter;
  private readonly recordChange: Database.Statement<[number]>;
  private readonly pruneChanges: Database.Statement<[number]>;
  private changesSincePrune = 0;
  private readonly writeBatch: (documents: readonly EntityDocument[]) => void;
  private readonly deleteBatch: (refs: readonly { entityType: string; urn: string }[]) => void;

  constructor(private readonly db: Database.Database) {
    for (const row of db.prepare<[], { spec: string }>('SELECT spec FROM index_specs').all()) {
      const spec = JSON.parse(row.spec) as EntityIndexSpec;
      this.entities.set(spec.entityType, indexedEntity(spec));
    }
    this.insertDoc = db.prepare(
      'INSERT INTO docs (entity_type, urn, removed, doc, text_seq, text_length) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.updateDoc = db.prepare('UPDATE docs SET removed = ?, doc = ? WHERE id = ?');
    this.updateDocText = db.prepare('UPDATE docs SET text_seq = ?, text_length = ? WHERE id = ?');
    this.findDoc = db.prepare(
      'SELECT id, removed, doc, text_length FROM docs WHERE entity_type = ? AND urn = ?',
    );
    this.text = new TextIndexWriter(db);
    this.deleteDoc = db.prepare('DELETE FROM docs WHERE id = ?');
    this.ids = new KeyedValueIds(db);
    this.deleteVal = db.prepare('DELETE FROM vals WHERE field = ? AND value = ? AND doc = ?');
    this.docVals = db.prepare('SELECT field, value FROM vals WHERE doc = ?');
    this.deleteVals = db.prepare('DELETE FROM vals WHERE doc = ?');
    this.insertBrowse = db.prepare(
      `INSERT OR IGNORE INTO browse (entity_type, parent, leaf, segment, doc, removed, multi)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteBrowse = db.prepare('DELETE FROM browse WHERE doc = ?');
    this.recordChange = db.prepare('INSERT INTO doc_changes (doc) VALUES (?)');
    this.pruneChanges = db.prepare(
      'DELETE FROM doc_changes WHERE seq <= (SELECT MAX(seq) FROM doc_changes) - ?',
    );
    this.writeBatch = writeTransaction(db, (documents: readonly EntityDocument[]) => {
      this.ids.begin();
      this.text.begin();
      for (const document of documents) this.writeOne(document);
      this.text.flush();
      this.pruneChangeLog();
    });
    this.deleteBatch = writeTransaction(db, (refs: readonly { entityType: string; urn: string }[]) => {
      this.ids.begin();
      this.text.begin();
      for (const ref of refs) {
        const row = this.findDoc.get(ref.entityType, ref.urn);
        if (row === undefined) continue;
        this.removeRows(row.id, true);
        this.text.forget(ref.entityType, row.id, row.text_length);
      }
      this.text.flush();
      this.pruneChangeLog();
    });
  }

  entity(entityType: string): IndexedEntity | undefined {
    return this.entities.get(entityType) ?? this.reloadSpec(entityType);
  }

  /** Creates or updates the entity type's index; re-indexes its text when the full-text columns change. */
  ensureIndex(spec: EntityIndexSpec): void {
    const next = indexedEntity(spec);
    const columnsKey = JSON.stringify(next.columns);
    const specJson = JSON.stringify(spec);
    const stored = this.db
      .prepare<[string], { spec: string; fts_columns: string }>(
        'SELECT spec, fts_columns FROM index_specs WHERE entity_type = ?',
      )
      .get(spec.entityType);
    writeTransaction(this.db, () => {
      this.ids.begin();
      this.db
        .prepare(
          `INSERT INTO index_specs (entity_type, spec, fts_columns) VALUES (?, ?, ?)
           ON CONFLICT (entity_type) DO UPDATE SET spec = excluded.spec, fts_columns = excluded.fts_columns`,
        )
        .run(spec.entityType, specJson, columnsKey);
      this.entities.set(spec.entityType, next);
      // Which values are keyed follows the spec; the writer diffs against rows derived with it.
      if (stored !== undefined && stored.spec !== specJson) {
        const docs = this.db
          .prepare<[string], StoredDocRow>(
            'SELECT id, removed, doc, text_length FROM docs WHERE entity_type = ?',
          )
          .all(spec.entityType);
        for (const row of docs) this.rederiveRows(spec.entityType, next, row);
      }
      if (stored?.fts_columns === columnsKey) return;
      // Every document's words are weighted (and the autocomplete columns keyed) by the columns.
      this.text.rebuild(next);
    })();
  }

  /** Drops the entity type's documents, text index and spec. */
  deleteIndex(entityType: string): void {
    writeTransaction(this.db, () => {
      this.ids.begin();
      const ids = this.db
        .prepare<[string], { id: number }>('SELECT id FROM docs WHERE entity_type = ?')
        .all(entityType);
      for (const { id } of ids) this.removeRows(id, false);
      this.db.prepare('DELETE FROM docs WHERE entity_type = ?').run(entityType);
      this.text.dropType(entityType);
      this.db.exec(`DROP TABLE IF EXISTS ${ftsTableOf(entityType)}`);
      this.db.prepare('DELETE FROM index_specs WHERE entity_type = ?').run(entityType);
      this.entities.delete(entityType);
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

  /**
   * Writes one document, touching only the rows that differ from the stored version: an identical
   * document costs one lookup; a changed one rewrites its changed values, and its browse rows and words
   * only when their inputs changed. The derived rows are a function of (document, spec), and ensureIndex
   * re-derives them when the spec changes, so the stored document tells what rows exist.
   */
  private writeOne(document: EntityDocument): void {
    const entity = this.requireEntity(document.entityType);
    const { fields } = document;
    const removed = valuesOf(fields[REMOVED_FIELD]).includes(true) ? 1 : 0;
    const json = JSON.stringify(fields);
    const stored = this.findDoc.get(document.entityType, document.urn);
    if (stored === undefined) {
      const words = documentWords(entity, fields);
      const id = Number(
        this.insertDoc.run(
          document.entityType,
          document.urn,
          removed,
          encodeDocument(json),
          this.text.batchSeq(),
          words.length,
        ).lastInsertRowid,
      );
      this.changed(id);
      this.insertValRows(id, document.entityType, valRowsOf(entity, fields));
      this.writeBrowsePaths(document.entityType, id, fields, removed);
      this.text.stage(document.entityType, id, words, undefined);
      return;
    }
    const storedJson = decodeDocument(stored.doc);
    if (storedJson === json && stored.removed === removed) return;
    const id = stored.id;
    const previous = JSON.parse(storedJson) as Fields;
    this.updateDoc.run(removed, encodeDocument(json), id);
    this.changed(id);
    // `vals` rows do not hold `removed`: a soft delete or restore leaves them as they are.
    const next = valRowsOf(entity, fields);
    const before = valRowsOf(entity, previous);
    const beforeKeys = new Map(before.map((r) => [valKey(r), r.num]));
    const nextKeys = new Map(next.map((r) => [valKey(r), r.num]));
    for (const row of before) {
      const key = valKey(row);
      if (!nextKeys.has(key) || nextKeys.get(key) !== row.num)
        this.deleteValRow(id, document.entityType, row);
    }
    this.insertValRows(
      id,
      document.entityType,
      next.filter((row) => {
        const key = valKey(row);
        return !beforeKeys.has(key) || beforeKeys.get(key) !== row.num;
      }),
    );
    if (
      stored.removed !== removed ||
      !sameValues(valuesOf(previous[BROWSE_PATHS_FIELD]), valuesOf(fields[BROWSE_PATHS_FIELD]))
    ) {
      this.deleteBrowse.run(id);
      this.writeBrowsePaths(document.entityType, id, fields, removed);
    }
    const texts = columnTexts(entity, fields);
    if (!sameValues(columnTexts(entity, previous), texts)) {
      const words = documentWords(entity, fields, texts);
      this.updateDocText.run(this.text.batchSeq(), words.length, id);
      this.text.stage(document.entityType, id, words, stored.text_length);
    }
  }

  /** Inserts `vals` rows (already distinct by field and value) in multi-row statements. */
  private insertValRows(id: number, entityType: string, rows: readonly ValRow[]): void {
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

  /** Deletes one `vals` row of a document (and its value, when no other document holds it). */
  private deleteValRow(id: number, entityType: string, row: ValRow): void {
    const field = this.ids.existingField(entityType, row.field);
    const value = field === undefined ? undefined : this.ids.existingValue(field, row.value, row.num);
    if (field === undefined || value === undefined) return;
    this.deleteVal.run(field, value, id);
    this.ids.release(field, value);
  }

  /** Deletes every `vals` row of a document (and the values no other document holds). */
  private deleteDocVals(id: number): void {
    const rows = this.docVals.all(id);
    this.deleteVals.run(id);
    for (const row of rows) this.ids.release(row.field, row.value);
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

  /** Deletes and re-inserts a document's vals and browse rows (after a spec change). */
  private rederiveRows(entityType: string, entity: IndexedEntity, row: StoredDocRow): void {
    const fields = JSON.parse(decodeDocument(row.doc)) as Fields;
    this.changed(row.id);
    this.deleteDocVals(row.id);
    this.deleteBrowse.run(row.id);
    this.insertValRows(row.id, entityType, valRowsOf(entity, fields));
    this.writeBrowsePaths(entityType, row.id, fields, row.removed);
  }

  private writeBrowsePaths(entityType: string, id: number, fields: Fields, removed: number): void {
    const name = browseEntityName(String(fields[URN_FIELD] ?? ''), fields[NAME_FIELD]);
    const paths = valuesOf(fields[BROWSE_PATHS_FIELD]);
    const multi = isMultiPath(paths) ? 1 : 0;
    for (const path of paths) this.writeBrowsePath(entityType, id, String(path), name, removed, multi);
  }

  /**
   * A browse path is the folder the entity is listed in: one group row per folder on the way down
   * (leaf = 0, under its parent) and the entity's own row in the folder itself (leaf = 1, its name).
   */
  private writeBrowsePath(
    entityType: string,
    id: number,
    raw: string,
    name: string,
    removed: number,
    multi: number,
  ): void {
    const path = normalizeBrowsePath(raw);
    const segments = path === '' ? [] : path.split('/').slice(1);
    let parent = '';
    for (const segment of segments) {
      this.insertBrowse.run(entityType, parent, 0, segment, id, removed, multi);
      parent = `${parent}/${segment}`;
    }
    this.insertBrowse.run(entityType, path, 1, name, id, removed, multi);
  }

  /** Deletes a document's rows (and the document: its words are dead with it; see TextIndexWriter). */
  private removeRows(id: number, andDocument: boolean): void {
    this.changed(id);
    this.deleteDocVals(id);
    this.deleteBrowse.run(id);
    if (andDocument) this.deleteDoc.run(id);
  }

  /** Records that a document's rows changed, for readers' in-memory facet indexes (FacetForwardIndex). */
  private changed(id: number): void {
    this.recordChange.run(id);
    this.changesSincePrune++;
  }

  /** Keeps the change log to what a reader can still replay (see REPLAY_AT_MOST), trimmed now and then. */
  private pruneChangeLog(): void {
    if (this.changesSincePrune < 10_000) return;
    this.pruneChanges.run(2 * REPLAY_AT_MOST);
    this.changesSincePrune = 0;
  }
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
