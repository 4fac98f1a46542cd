import type Database from 'better-sqlite3';
import { ValidationError } from '@catalog/model';
import { REMOVED_FIELD } from '../document-fields.js';
import type { EntityDocument, EntityIndexSpec } from '../port.js';
import { DerivedRowStore } from './derived-row-store.js';
import { browseRowsOf, valKey, valRowsOf } from './derived-rows.js';
import { REPLAY_AT_MOST } from './doc-change-feed.js';
import { indexedEntity, valuesOf, type IndexedEntity } from './indexed-entity.js';
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

/** Writes entity documents into docs / vals / browse / the text index, and keeps the index specs. */
export class SqliteDocumentWriter {
  private readonly entities = new Map<string, IndexedEntity>();
  private readonly insertDoc: Database.Statement<[string, string, number, Buffer, number, number]>;
  private readonly updateDoc: Database.Statement<[number, Buffer, number]>;
  private readonly updateDocText: Database.Statement<[number, number, number]>;
  private readonly findDoc: Database.Statement<[string, string], StoredDocRow>;
  private readonly deleteDoc: Database.Statement<[number]>;
  private readonly rows: DerivedRowStore;
  /** The entity types whose stored spec this write transaction has compared with `entities`. */
  private readonly specsChecked = new Set<string>();
  private readonly specOf: Database.Statement<[string], string>;
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
    this.rows = new DerivedRowStore(db);
    this.specOf = db.prepare<[string], string>('SELECT spec FROM index_specs WHERE entity_type = ?').pluck();
    this.recordChange = db.prepare('INSERT INTO doc_changes (doc) VALUES (?)');
    this.pruneChanges = db.prepare(
      'DELETE FROM doc_changes WHERE seq <= (SELECT MAX(seq) FROM doc_changes) - ?',
    );
    this.writeBatch = writeTransaction(db, (documents: readonly EntityDocument[]) => {
      this.beginWrite();
      this.text.begin();
      for (const document of documents) this.writeOne(document);
      this.text.flush();
      this.pruneChangeLog();
    });
    this.deleteBatch = writeTransaction(db, (refs: readonly { entityType: string; urn: string }[]) => {
      this.beginWrite();
      this.text.begin();
      for (const ref of refs) {
        const row = this.findDoc.get(ref.entityType, ref.urn);
        if (row === undefined) continue;
        this.removeRows(ref.entityType, row);
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
    writeTransaction(this.db, () => {
      this.rows.ids.begin();
      // Read in the write transaction: the rows in the file were derived with the stored spec (maybe
      // another connection's), and are deleted as it derives them.
      const stored = this.db
        .prepare<[string], { spec: string; fts_columns: string }>(
          'SELECT spec, fts_columns FROM index_specs WHERE entity_type = ?',
        )
        .get(spec.entityType);
      const previous =
        stored === undefined ? undefined : indexedEntity(JSON.parse(stored.spec) as EntityIndexSpec);
      this.db
        .prepare(
          `INSERT INTO index_specs (entity_type, spec, fts_columns) VALUES (?, ?, ?)
           ON CONFLICT (entity_type) DO UPDATE SET spec = excluded.spec, fts_columns = excluded.fts_columns`,
        )
        .run(spec.entityType, specJson, columnsKey);
      this.entities.set(spec.entityType, next);
      // Which values are keyed follows the spec; the writer diffs against rows derived with it.
      if (previous !== undefined && stored?.spec !== specJson) {
        const docs = this.db
          .prepare<[string], StoredDocRow>(
            'SELECT id, removed, doc, text_length FROM docs WHERE entity_type = ?',
          )
          .all(spec.entityType);
        for (const row of docs) this.rederiveRows(spec.entityType, previous, next, row);
      }
      if (stored?.fts_columns === columnsKey) return;
      // Every document's words are weighted (and the autocomplete columns keyed) by the columns.
      this.text.rebuild(next);
    })();
  }

  /** Drops the entity type's documents, text index and spec. */
  deleteIndex(entityType: string): void {
    writeTransaction(this.db, () => {
      this.rows.ids.begin();
      const ids = this.db
        .prepare<[string], number>('SELECT id FROM docs WHERE entity_type = ?')
        .pluck()
        .all(entityType);
      for (const id of ids) this.changed(id);
      // Every row of the type goes: found by the keys' prefixes (fields are per entity type), not by
      // deriving each document's rows.
      const fieldsOfType = 'SELECT id FROM val_fields WHERE entity_type = ?';
      this.db.prepare(`DELETE FROM vals WHERE field IN (${fieldsOfType})`).run(entityType);
      this.db.prepare(`DELETE FROM val_values WHERE field IN (${fieldsOfType})`).run(entityType);
      this.db.prepare('DELETE FROM browse WHERE entity_type = ?').run(entityType);
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

  private beginWrite(): void {
    this.rows.ids.begin();
    this.specsChecked.clear();
  }

  /**
   * The type's spec as the file holds it in this write transaction: rows are found by deriving them
   * with the spec that wrote them, and another connection may have changed it (and re-derived the rows)
   * since this one read it. One lookup per type and transaction.
   */
  private storedEntity(entityType: string): IndexedEntity {
    const cached = this.entities.get(entityType);
    if (cached !== undefined && this.specsChecked.has(entityType)) return cached;
    const json = this.specOf.get(entityType);
    if (json === undefined)
      throw new ValidationError(`Unknown entity type: ${entityType} (no index; run ensureIndex)`);
    this.specsChecked.add(entityType);
    if (cached !== undefined && JSON.stringify(cached.spec) === json) return cached;
    const entity = indexedEntity(JSON.parse(json) as EntityIndexSpec);
    this.entities.set(entityType, entity);
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
    const entity = this.storedEntity(document.entityType);
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
      this.rows.addVals(id, document.entityType, valRowsOf(entity, fields));
      this.rows.addBrowse(id, document.entityType, browseRowsOf(fields), removed);
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
        this.rows.deleteVals(id, document.entityType, [row]);
    }
    this.rows.addVals(
      id,
      document.entityType,
      next.filter((row) => {
        const key = valKey(row);
        return !beforeKeys.has(key) || beforeKeys.get(key) !== row.num;
      }),
    );
    // Compared as derived: the leaf rows hold the name too, so a rename rewrites them.
    const browseBefore = browseRowsOf(previous);
    const browseNext = browseRowsOf(fields);
    if (stored.removed !== removed || JSON.stringify(browseBefore) !== JSON.stringify(browseNext)) {
      this.rows.deleteBrowseRows(id, document.entityType, browseBefore);
      this.rows.addBrowse(id, document.entityType, browseNext, removed);
    }
    const texts = columnTexts(entity, fields);
    if (!sameValues(columnTexts(entity, previous), texts)) {
      const words = documentWords(entity, fields, texts);
      this.updateDocText.run(this.text.batchSeq(), words.length, id);
      this.text.stage(document.entityType, id, words, stored.text_length);
    }
  }

  /** Deletes a document's rows as the previous spec derived them and adds them as the new one does. */
  private rederiveRows(
    entityType: string,
    previous: IndexedEntity,
    next: IndexedEntity,
    row: StoredDocRow,
  ): void {
    const fields = JSON.parse(decodeDocument(row.doc)) as Fields;
    this.changed(row.id);
    this.rows.deleteVals(row.id, entityType, valRowsOf(previous, fields));
    this.rows.addVals(row.id, entityType, valRowsOf(next, fields));
  }

  /**
   * Deletes a document and its rows, found by deriving them from its stored fields (derived-rows.ts);
   * its words are dead with it (see TextIndexWriter).
   */
  private removeRows(entityType: string, row: StoredDocRow): void {
    const fields = JSON.parse(decodeDocument(row.doc)) as Fields;
    this.changed(row.id);
    this.rows.deleteVals(row.id, entityType, valRowsOf(this.storedEntity(entityType), fields));
    this.rows.deleteBrowseRows(row.id, entityType, browseRowsOf(fields));
    this.deleteDoc.run(row.id);
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
