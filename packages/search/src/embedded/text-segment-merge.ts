import type Database from 'better-sqlite3';
import { BlockWriter, compareTerms, forEachEntry, type BlockEntry } from './postings-blocks.js';
import { decodePostings, encodePostings } from './postings-codec.js';

/** Segments of one size tier that merge into one: each tier holds up to this many less one. */
const MERGE_FACTOR = 16;

/**
 * A merge never makes a segment of more documents than this: the largest merges would otherwise hold
 * the write lock for seconds (every posting of the catalog read and written again), and a query reads a
 * few segments of this size as fast as one.
 */
const MAX_MERGED_DOCS = 300_000;

/** Blocks read per step from each merged segment: merging holds a few blocks of each, not the segments. */
const PAGE_ROWS = 8;

interface Segment {
  readonly id: number;
  readonly lo: number;
  readonly hi: number;
  readonly docs: number;
}

/** A segment's size level: log base MERGE_FACTOR of its documents, a segment of fewer than 8 as one of 8. */
function levelOf(docs: number): number {
  return Math.log(Math.max(docs, MERGE_FACTOR)) / Math.log(MERGE_FACTOR);
}

/** Segments within this much of the largest level of what is left form one level (batch sizes vary). */
const LEVEL_SPAN = 0.75;

/**
 * Merges the entity type's segments as Lucene's log merge policy does: from the oldest, the segments
 * down to LEVEL_SPAN below the largest level left form one level, and MERGE_FACTOR adjacent segments
 * of a level merge into one of the next. Segments stay logarithmic in number, and only adjacent
 * segments merge, so a merged segment covers a contiguous range of batches.
 */
export function mergeDueSegments(db: Database.Database, entityType: string): void {
  const list = db.prepare<[string], Segment>(
    'SELECT id, lo, hi, docs FROM text_segments WHERE entity_type = ? ORDER BY lo',
  );
  for (;;) {
    const run = dueRun(list.all(entityType));
    if (run === undefined) return;
    mergeSegments(db, entityType, run);
  }
}

/** The first MERGE_FACTOR adjacent segments of one level, if any level has that many. */
function dueRun(segments: readonly Segment[]): readonly Segment[] | undefined {
  const levels = segments.map((s) => levelOf(s.docs));
  let start = 0;
  while (start < segments.length) {
    const top = Math.max(...levels.slice(start));
    const bottom = top - LEVEL_SPAN;
    let upto = segments.length - 1;
    while (upto > start && levels[upto]! < bottom) upto--;
    for (let from = start; from + MERGE_FACTOR <= upto + 1; from += MERGE_FACTOR) {
      const run = segments.slice(from, from + MERGE_FACTOR);
      if (run.reduce((n, s) => n + s.docs, 0) <= MAX_MERGED_DOCS) return run;
    }
    start = upto + 1;
  }
  return undefined;
}

/**
 * Replaces adjacent segments by one holding their live postings: a document's postings are live in
 * the segment whose batch range holds the document's `text_seq` (a deleted document has no row).
 */
export function mergeSegments(db: Database.Database, entityType: string, sources: readonly Segment[]): void {
  const lo = Math.min(...sources.map((s) => s.lo));
  const hi = Math.max(...sources.map((s) => s.hi));
  const liveSeq = liveSeqs(db, entityType, lo, hi);
  // A merged segment counts the documents its sources were written with, dead ones too: its level is
  // then above theirs, so levels keep decreasing from the oldest segment to the newest.
  const docs = sources.reduce((n, s) => n + s.docs, 0);
  const merged = db
    .prepare<[string, number, number, number], number>(
      'INSERT INTO text_segments (entity_type, lo, hi, docs) VALUES (?, ?, ?, ?) RETURNING id',
    )
    .pluck()
    .get(entityType, lo, hi, docs)!;
  const insert = db.prepare<[number, number, string, Uint8Array]>(
    'INSERT INTO text_blocks (segment, grp, first, block) VALUES (?, ?, ?, ?)',
  );
  const cursors = sources.map((segment) => new SegmentCursor(db, segment));
  let group = -1;
  let blocks: BlockWriter | undefined;
  const ids: number[] = [];
  const freqs: number[] = [];
  for (;;) {
    let key: Head | undefined;
    for (const cursor of cursors) {
      const head = cursor.head;
      if (head !== undefined && (key === undefined || compareHeads(head, key) < 0)) key = head;
    }
    if (key === undefined) break;
    if (key.group !== group) {
      blocks?.finish();
      group = key.group;
      const into = group;
      blocks = new BlockWriter((first, block) => insert.run(merged, into, first, block));
    }
    const term = key.entry.block.slice(key.entry.termStart, key.entry.termEnd);
    ids.length = 0;
    freqs.length = 0;
    let sorted = true;
    for (const cursor of cursors) {
      const head = cursor.head;
      if (head === undefined || compareHeads(head, key) !== 0) continue;
      const { lo: from, hi: to } = cursor.segment;
      const { block, postingsStart, postingsEnd } = head.entry;
      decodePostings(block.subarray(postingsStart, postingsEnd), (id, freq) => {
        const seq = liveSeq[id] ?? 0;
        if (seq < from || seq > to) return;
        if (ids.length > 0 && id < ids[ids.length - 1]!) sorted = false;
        ids.push(id);
        freqs.push(freq);
      });
      cursor.advance();
    }
    if (ids.length === 0) continue;
    if (sorted) blocks!.add(term, encodePostings(ids, freqs, ids.length));
    else {
      const order = ids.map((_, i) => i).sort((x, y) => ids[x]! - ids[y]!);
      blocks!.add(
        term,
        encodePostings(
          order.map((i) => ids[i]!),
          order.map((i) => freqs[i]!),
          order.length,
        ),
      );
    }
  }
  blocks?.finish();
  const remove = db.prepare<[number]>('DELETE FROM text_blocks WHERE segment = ?');
  const removeSegment = db.prepare<[number]>('DELETE FROM text_segments WHERE id = ?');
  for (const source of sources) {
    remove.run(source.id);
    removeSegment.run(source.id);
  }
}

/** Per document id, the `text_seq` of the type's documents written in [lo, hi] (0 for others). */
function liveSeqs(db: Database.Database, entityType: string, lo: number, hi: number): Int32Array {
  const max = db.prepare<[], number | null>('SELECT MAX(id) FROM docs').pluck().get() ?? 0;
  const seqs = new Int32Array(max + 1);
  const rows = db
    .prepare<[number, number, string], [number, number]>(
      // `text_seq > 0` lets SQLite use the partial index docs_by_text_seq.
      'SELECT id, text_seq FROM docs WHERE text_seq > 0 AND text_seq BETWEEN ? AND ? AND entity_type = ?',
    )
    .raw()
    .iterate(lo, hi, entityType);
  for (const [id, seq] of rows) seqs[id] = seq;
  return seqs;
}

/** The entry a cursor stands on, with its group. */
interface Head {
  readonly group: number;
  readonly entry: BlockEntry;
}

function compareHeads(a: Head, b: Head): number {
  return a.group - b.group || compareTerms(a.entry, b.entry);
}

/** Reads one segment's entries in (group, word) order, a few blocks at a time. */
class SegmentCursor {
  head: Head | undefined;
  private rows: { grp: number; first: string; block: Uint8Array }[] = [];
  private row = 0;
  private entries: BlockEntry[] = [];
  private entry = 0;
  private done = false;
  private readonly next: Database.Statement<
    [number, number, number, string, number],
    { grp: number; first: string; block: Uint8Array }
  >;

  constructor(
    db: Database.Database,
    readonly segment: Segment,
  ) {
    this.next = db.prepare(
      `SELECT grp, first, block FROM text_blocks
       WHERE segment = ? AND (grp > ? OR (grp = ? AND first > ?)) ORDER BY grp, first LIMIT ?`,
    );
    this.rows = this.next.all(segment.id, -1, -1, '', PAGE_ROWS);
    this.done = this.rows.length < PAGE_ROWS;
    this.row = -1;
    this.nextBlock();
  }

  advance(): void {
    this.entry++;
    if (this.entry < this.entries.length)
      this.head = { group: this.head!.group, entry: this.entries[this.entry]! };
    else this.nextBlock();
  }

  private nextBlock(): void {
    for (;;) {
      this.row++;
      if (this.row >= this.rows.length) {
        const last = this.rows[this.rows.length - 1];
        if (this.done || last === undefined) {
          this.head = undefined;
          return;
        }
        this.rows = this.next.all(this.segment.id, last.grp, last.grp, last.first, PAGE_ROWS);
        this.done = this.rows.length < PAGE_ROWS;
        this.row = 0;
        if (this.rows.length === 0) {
          this.head = undefined;
          return;
        }
      }
      const { grp, block } = this.rows[this.row]!;
      this.entries = [];
      forEachEntry(block, (entry) => {
        this.entries.push(entry);
      });
      this.entry = 0;
      if (this.entries.length > 0) {
        this.head = { group: grp, entry: this.entries[0]! };
        return;
      }
    }
  }
}
