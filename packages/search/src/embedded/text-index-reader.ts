import type Database from 'better-sqlite3';
import type { IndexedEntity } from './indexed-entity.js';
import { DocChangeFeed } from './doc-change-feed.js';
import { grown, resized } from './grown-array.js';
import { forEachEntry, placeOf } from './postings-blocks.js';
import { ALL_COLUMNS, WEIGHT_SCALE } from './text-document-words.js';
import { indexTerm, prefixUpperBound } from './text-words.js';

/** bm25's parameters, as SQLite FTS5's bm25() (and the ecosystem's default similarity) use them. */
const K1 = 1.2;
const B = 0.75;

/** Per document id of one entity type: the batch of its live postings, its length, soft deletion. */
interface TypeText {
  gen: Int32Array;
  length: Int32Array;
  removed: Uint8Array;
}

/** The documents matching every term, with their bm25 scores (`n` of each array are used). */
export interface TextMatches {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
  readonly n: number;
}

/** Which postings a match reads: group ALL_COLUMNS for search, autocomplete columns with weights. */
export interface TextGroups {
  /** Postings group and the factor turning its stored frequency into the weighted count. */
  readonly groups: readonly { readonly group: number; readonly factor: number }[];
}

const SEARCH_GROUPS: TextGroups = { groups: [{ group: ALL_COLUMNS, factor: 1 / WEIGHT_SCALE }] };

/**
 * Full-text matching and bm25 scoring over the embedded text index (text-index-schema.ts), in typed
 * arrays: each query term is a word prefix whose postings are read from every segment of the entity
 * type, kept where live, and scored as FTS5's bm25() scored its column-weighted matches, so rankings are
 * those of the FTS5 tables this replaced; the cost is one pass over the postings of the words matched.
 * Per-document state (batch, length, soft deletion) is kept current as FacetForwardIndex keeps its
 * values, by replaying `doc_changes`; call `sync` inside the read transaction of the query.
 */
export class TextIndexReader {
  private readonly types = new Map<string, TypeText>();
  private readonly feed: DocChangeFeed;
  private readonly docRow: Database.Statement<
    [number],
    { entity_type: string; removed: number; text_seq: number; text_length: number }
  >;
  private readonly typeDocs: Database.Statement<[string], [number, number, number, number]>;
  private readonly segments: Database.Statement<[string], { lo: number; hi: number; id: number }>;
  private readonly stats: Database.Statement<[string], { docs: number; tokens: number }>;
  private readonly blocks: Database.Statement<
    { segment: number; group: number; prefix: string; upper: string },
    Uint8Array
  >;
  /**
   * Scratch per document id, reused across queries: which phrase last saw it, and its weighted count
   * (a sum of multiples of 0.5, exact in 32 bits).
   */
  private mark = new Int32Array(0);
  private stamp = 0;
  private freq = new Float32Array(0);
  /** Phrases matched so far (0 between queries; inputs are at most 1,024 characters) and the score so far. */
  private matched = new Uint16Array(0);
  /** The documents the current phrase reached, in first-sight order (`touchedCount` of them). */
  private touched = new Int32Array(0);
  private touchedCount = 0;
  private score = new Float64Array(0);

  constructor(db: Database.Database) {
    this.feed = new DocChangeFeed(db);
    this.docRow = db.prepare('SELECT entity_type, removed, text_seq, text_length FROM docs WHERE id = ?');
    this.typeDocs = db
      .prepare<[string], [number, number, number, number]>(
        'SELECT id, removed, text_seq, text_length FROM docs WHERE entity_type = ?',
      )
      .raw();
    this.segments = db.prepare('SELECT id, lo, hi FROM text_segments WHERE entity_type = ? ORDER BY lo');
    this.stats = db.prepare('SELECT docs, tokens FROM text_stats WHERE entity_type = ?');
    // The blocks that may hold words starting with the prefix: the last one starting at or before it,
    // and those starting after it and before the next prefix.
    this.blocks = db
      .prepare<{ segment: number; group: number; prefix: string; upper: string }, Uint8Array>(
        `SELECT block FROM text_blocks
         WHERE segment = @segment AND grp = @group AND first < @upper AND first >= IFNULL(
           (SELECT first FROM text_blocks WHERE segment = @segment AND grp = @group AND first <= @prefix
            ORDER BY first DESC LIMIT 1), '')
         ORDER BY first`,
      )
      .pluck();
  }

  /** Catches up with the documents changed since the last call (in the caller's read snapshot). */
  sync(): void {
    this.feed.catchUp(
      this.types.size > 0,
      (id) => this.refresh(id),
      () => this.types.clear(),
    );
  }

  /** Reads the entity type's per-document state now (see SearchWarmer) instead of at its first query. */
  warm(entityType: string): void {
    this.fit(this.type(entityType).gen.length);
  }

  /** Whether the entity type's per-document state is in memory. */
  holds(entityType: string): boolean {
    return this.types.has(entityType);
  }

  /** The documents having, for every term, a word starting with it in a text column; bm25-scored. */
  search(entity: IndexedEntity, terms: readonly string[], includeRemoved: boolean): TextMatches {
    return this.match(entity, terms, SEARCH_GROUPS, includeRemoved);
  }

  /**
   * The documents matching every term within the given postings groups, scored by bm25 over those
   * groups (each phrase's weighted count), the document length and count being over all columns.
   */
  match(
    entity: IndexedEntity,
    terms: readonly string[],
    groups: TextGroups,
    includeRemoved: boolean,
  ): TextMatches {
    const entityType = entity.spec.entityType;
    const stats = this.stats.get(entityType);
    const phrases = terms.map(indexTerm);
    if (stats === undefined || stats.docs <= 0 || phrases.length === 0 || phrases.includes(''))
      return { ids: new Int32Array(0), scores: new Float64Array(0), n: 0 };
    const type = this.type(entityType);
    const segments = this.segments.all(entityType);
    const total = stats.docs;
    const averageLength = stats.tokens / total;
    this.fit(type.gen.length);
    const { gen, length } = type;
    let candidates = new Int32Array(0);
    let candidateCount = 0;
    for (let p = 0; p < phrases.length; p++) {
      const phrase = phrases[p]!;
      const upper = prefixUpperBound(phrase);
      const prefix = Buffer.from(phrase, 'utf8');
      this.stamp = this.stamp >= 0x7ffffffe ? this.resetMarks() : this.stamp + 1;
      const { freq } = this;
      this.touchedCount = 0;
      for (const segment of segments) {
        for (const { group, factor } of groups.groups) {
          for (const block of this.blocks.all({ segment: segment.id, group, prefix: phrase, upper })) {
            forEachEntry(block, (entry) => {
              const place = placeOf(entry, prefix);
              if (place > 0) return false;
              if (place === 0)
                this.accumulate(block, entry.postingsStart, entry.postingsEnd, gen, segment, factor);
              return true;
            });
          }
        }
      }
      const touched = this.touched;
      const touchedCount = this.touchedCount;
      // FTS5's IDF of a phrase: log((N - hits + 0.5) / (hits + 0.5)), or 1e-6 when that is not positive.
      let idf = Math.log((total - touchedCount + 0.5) / (touchedCount + 0.5));
      if (idf <= 0) idf = 1e-6;
      const { matched, score } = this;
      const next = new Int32Array(p === 0 ? touchedCount : Math.min(touchedCount, candidateCount));
      let nextCount = 0;
      for (let i = 0; i < touchedCount; i++) {
        const id = touched[i]!;
        if (matched[id] !== p) continue;
        const x = freq[id]!;
        const term = idf * ((x * (K1 + 1.0)) / (x + K1 * (1 - B + (B * length[id]!) / averageLength)));
        score[id] = p === 0 ? 0 + term : score[id]! + term;
        matched[id] = p + 1;
        next[nextCount++] = id;
      }
      if (p > 0)
        for (let i = 0; i < candidateCount; i++)
          if (matched[candidates[i]!] === p) matched[candidates[i]!] = 0;
      candidates = next;
      candidateCount = nextCount;
      if (candidateCount === 0) break;
    }
    const ids = new Int32Array(candidateCount);
    const scores = new Float64Array(candidateCount);
    let n = 0;
    for (let i = 0; i < candidateCount; i++) {
      const id = candidates[i]!;
      this.matched[id] = 0;
      if (!includeRemoved && type.removed[id] === 1) continue;
      ids[n] = id;
      scores[n] = this.score[id]!;
      n++;
    }
    return { ids, scores, n };
  }

  /**
   * Adds the live postings of one encoded list (postings-codec.ts) to the phrase's weighted counts,
   * noting each document's first sight. The list is decoded here, inline: this loop is the cost of a
   * query, and a callback per posting (decodePostings) took several times as long.
   */
  private accumulate(
    bytes: Uint8Array,
    start: number,
    end: number,
    gen: Int32Array,
    segment: { readonly lo: number; readonly hi: number },
    factor: number,
  ): void {
    const { mark, freq, touched, stamp } = this;
    const { lo, hi } = segment;
    const size = gen.length;
    let count = this.touchedCount;
    let at = start;
    let id = 0;
    while (at < end) {
      let delta = 0;
      let shift = 1;
      let byte: number;
      do {
        byte = bytes[at++]!;
        delta += (byte & 0x7f) * shift;
        shift *= 128;
      } while (byte >= 0x80);
      let f = 0;
      shift = 1;
      do {
        byte = bytes[at++]!;
        f += (byte & 0x7f) * shift;
        shift *= 128;
      } while (byte >= 0x80);
      id += delta;
      if (id >= size) continue;
      const g = gen[id]!;
      if (g < lo || g > hi) continue;
      if (mark[id] !== stamp) {
        mark[id] = stamp;
        freq[id] = 0;
        touched[count++] = id;
      }
      freq[id]! += f * factor;
    }
    this.touchedCount = count;
  }

  private resetMarks(): number {
    this.mark.fill(0);
    return 1;
  }

  /** Grows the scratch arrays to cover document ids below `size`. */
  private fit(size: number): void {
    if (this.mark.length >= size) return;
    this.mark = resized(this.mark, size);
    this.freq = resized(this.freq, size);
    this.matched = resized(this.matched, size);
    this.touched = resized(this.touched, size);
    this.score = resized(this.score, size);
  }

  private type(entityType: string): TypeText {
    let type = this.types.get(entityType);
    if (type === undefined) {
      type = { gen: new Int32Array(1024), length: new Int32Array(1024), removed: new Uint8Array(1024) };
      for (const [id, removed, seq, length] of this.typeDocs.iterate(entityType))
        set(type, id, removed, seq, length);
      this.types.set(entityType, type);
    }
    return type;
  }

  /** Re-reads one changed document into the entity types read so far. */
  private refresh(id: number): void {
    const row = this.docRow.get(id);
    for (const [entityType, type] of this.types) {
      if (row?.entity_type !== entityType && id < type.gen.length) {
        type.gen[id] = 0;
        type.removed[id] = 0;
      }
    }
    if (row === undefined) return;
    const type = this.types.get(row.entity_type);
    if (type !== undefined) set(type, id, row.removed, row.text_seq, row.text_length);
  }
}

function set(type: TypeText, id: number, removed: number, seq: number, length: number): void {
  if (id >= type.gen.length) {
    type.gen = grown(type.gen, id);
    type.length = resized(type.length, type.gen.length);
    type.removed = resized(type.removed, type.gen.length);
  }
  type.gen[id] = seq;
  type.length[id] = length;
  type.removed[id] = removed === 1 ? 1 : 0;
}
