import type Database from 'better-sqlite3';
import type { EntityDocument } from '../port.js';
import type { IndexedEntity } from './indexed-entity.js';
import { compareCodePoints } from '../sort-values.js';
import { BlockWriter } from './postings-blocks.js';
import { encodePostings } from './postings-codec.js';
import { decodeDocument } from './stored-document.js';
import { documentWords, type DocumentWords } from './text-document-words.js';
import { mergeDueSegments } from './text-segment-merge.js';

/** What one write batch staged for one entity type. */
interface Staged {
  /** Document id → its words; a document written twice in the batch keeps the last. */
  readonly docs: Map<number, DocumentWords>;
  docDelta: number;
  tokenDelta: number;
}

/** Documents re-read per step of a rebuild: each step is one segment. */
const REBUILD_STEP = 5_000;

/**
 * Writes the embedded full-text index (text-index-schema.ts). A write batch stages the words of the
 * documents whose text changed and `flush` writes them as one new segment per entity type, numbered by
 * the batch's `text_seq`, which the caller stores in each document's row; older copies of those
 * documents' postings become dead by that alone. Segments of similar size then merge
 * (text-segment-merge.ts). Call `begin` and `flush` inside the write transaction.
 */
export class TextIndexWriter {
  private readonly staged = new Map<string, Staged>();
  private seq: number | undefined;
  private readonly nextSeq: Database.Statement<[], number>;
  private readonly insertSegment: Database.Statement<[string, number, number, number], number>;
  private readonly insertBlock: Database.Statement<[number, number, string, Uint8Array]>;
  private readonly addStats: Database.Statement<[string, number, number]>;

  constructor(private readonly db: Database.Database) {
    db.prepare('INSERT OR IGNORE INTO text_seq (id, seq) VALUES (1, 0)').run();
    this.nextSeq = db
      .prepare<[], number>('UPDATE text_seq SET seq = seq + 1 WHERE id = 1 RETURNING seq')
      .pluck();
    this.insertSegment = db
      .prepare<[string, number, number, number], number>(
        'INSERT INTO text_segments (entity_type, lo, hi, docs) VALUES (?, ?, ?, ?) RETURNING id',
      )
      .pluck();
    this.insertBlock = db.prepare('INSERT INTO text_blocks (segment, grp, first, block) VALUES (?, ?, ?, ?)');
    this.addStats = db.prepare(
      `INSERT INTO text_stats (entity_type, docs, tokens) VALUES (?, ?, ?)
       ON CONFLICT (entity_type) DO UPDATE SET docs = docs + excluded.docs, tokens = tokens + excluded.tokens`,
    );
  }

  /** Starts a write batch, forgetting what an aborted one staged. */
  begin(): void {
    this.staged.clear();
    this.seq = undefined;
  }

  /** The batch's `text_seq`, which the rows of the documents it stages take. */
  batchSeq(): number {
    this.seq ??= this.nextSeq.get() ?? 1;
    return this.seq;
  }

  /**
   * Stages a document's words under the batch's seq. `previousLength` is the length its row held
   * (undefined for a new document), so the entity type's totals follow.
   */
  stage(entityType: string, id: number, words: DocumentWords, previousLength: number | undefined): void {
    const staged = this.stagedOf(entityType);
    staged.docs.set(id, words);
    if (previousLength === undefined) staged.docDelta += 1;
    staged.tokenDelta += words.length - (previousLength ?? 0);
  }

  /** A document (of `length` words) is deleted: its postings are dead with its row. */
  forget(entityType: string, id: number, length: number): void {
    const staged = this.stagedOf(entityType);
    staged.docs.delete(id);
    staged.docDelta -= 1;
    staged.tokenDelta -= length;
  }

  /** Writes the staged documents as one segment per entity type, then merges what is due. */
  flush(): void {
    for (const [entityType, staged] of this.staged) {
      if (staged.docs.size > 0) this.writeSegment(entityType, staged.docs);
      if (staged.docDelta !== 0 || staged.tokenDelta !== 0)
        this.addStats.run(entityType, staged.docDelta, staged.tokenDelta);
      mergeDueSegments(this.db, entityType);
    }
    this.begin();
  }

  /** Removes the entity type's segments and totals (its documents' rows are the caller's). */
  dropType(entityType: string): void {
    this.db
      .prepare(
        'DELETE FROM text_blocks WHERE segment IN (SELECT id FROM text_segments WHERE entity_type = ?)',
      )
      .run(entityType);
    this.db.prepare('DELETE FROM text_segments WHERE entity_type = ?').run(entityType);
    this.db.prepare('DELETE FROM text_stats WHERE entity_type = ?').run(entityType);
    this.staged.delete(entityType);
  }

  /**
   * Indexes every document of the entity type again (its text columns changed, or the file comes
   * from the FTS5 layout), in steps of REBUILD_STEP documents, each its own batch and segment.
   */
  rebuild(entity: IndexedEntity): void {
    const entityType = entity.spec.entityType;
    this.dropType(entityType);
    const page = this.db.prepare<[string, number, number], { id: number; doc: string | Uint8Array }>(
      'SELECT id, doc FROM docs WHERE entity_type = ? AND id > ? ORDER BY id LIMIT ?',
    );
    const update = this.db.prepare<[number, number, number]>(
      'UPDATE docs SET text_seq = ?, text_length = ? WHERE id = ?',
    );
    let after = 0;
    for (;;) {
      const rows = page.all(entityType, after, REBUILD_STEP);
      if (rows.length === 0) break;
      this.begin();
      const seq = this.batchSeq();
      for (const row of rows) {
        const words = documentWords(entity, JSON.parse(decodeDocument(row.doc)) as EntityDocument['fields']);
        this.stage(entityType, row.id, words, undefined);
        update.run(seq, words.length, row.id);
      }
      this.flush();
      after = rows[rows.length - 1]!.id;
    }
  }

  private stagedOf(entityType: string): Staged {
    let staged = this.staged.get(entityType);
    if (staged === undefined) {
      staged = { docs: new Map(), docDelta: 0, tokenDelta: 0 };
      this.staged.set(entityType, staged);
    }
    return staged;
  }

  /** One segment holding the documents' postings, every group and word, ids ascending. */
  private writeSegment(entityType: string, docs: ReadonlyMap<number, DocumentWords>): void {
    const seq = this.batchSeq();
    const segment = this.insertSegment.get(entityType, seq, seq, docs.size)!;
    const lists = new Map<number, Map<string, { ids: number[]; freqs: number[] }>>();
    for (const id of [...docs.keys()].sort((a, b) => a - b)) {
      for (const [group, words] of docs.get(id)!.groups) {
        let byWord = lists.get(group);
        if (byWord === undefined) lists.set(group, (byWord = new Map()));
        for (const [word, freq] of words) {
          let list = byWord.get(word);
          if (list === undefined) byWord.set(word, (list = { ids: [], freqs: [] }));
          list.ids.push(id);
          list.freqs.push(freq);
        }
      }
    }
    for (const group of [...lists.keys()].sort((a, b) => a - b)) {
      const byWord = lists.get(group)!;
      const blocks = new BlockWriter((first, block) => this.insertBlock.run(segment, group, first, block));
      for (const word of [...byWord.keys()].sort(compareCodePoints)) {
        const list = byWord.get(word)!;
        blocks.add(word, encodePostings(list.ids, list.freqs, list.ids.length));
      }
      blocks.finish();
    }
  }
}
