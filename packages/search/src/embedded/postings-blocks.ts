import { readVarint, writeVarint } from './varint.js';

/**
 * Postings lists packed into blocks, the rows of `text_blocks`: a segment's words of one group in
 * code point order, each entry its word (UTF-8) and its postings list (postings-codec.ts), both behind
 * a varint length. A block holds entries until it reaches BLOCK_BYTES, so a segment is a few rows per
 * hundred words instead of a row per word: rows cost SQLite a key and a cell each, and the writer,
 * the merges and the readers a call each.
 */
export const BLOCK_BYTES = 16 * 1024;

/** One entry of a block: where its word and its postings lie in the block. */
export interface BlockEntry {
  readonly block: Uint8Array;
  readonly termStart: number;
  readonly termEnd: number;
  readonly postingsStart: number;
  readonly postingsEnd: number;
}

/** Collects entries (in word order) into blocks, handing each full block on with its first word. */
export class BlockWriter {
  private buffer = new Uint8Array(BLOCK_BYTES * 2);
  private size = 0;
  private first: string | undefined;

  constructor(private readonly onBlock: (first: string, block: Uint8Array) => void) {}

  /** Appends a word (text, or its UTF-8 bytes) and its postings list; words come in byte order. */
  add(term: string | Uint8Array, postings: Uint8Array): void {
    const bytes = typeof term === 'string' ? Buffer.from(term, 'utf8') : term;
    this.first ??= typeof term === 'string' ? term : Buffer.from(term).toString('utf8');
    const needed = this.size + bytes.length + postings.length + 20;
    if (needed > this.buffer.length) {
      const next = new Uint8Array(Math.max(needed, this.buffer.length * 2));
      next.set(this.buffer.subarray(0, this.size));
      this.buffer = next;
    }
    let at = writeVarint(this.buffer, this.size, bytes.length);
    this.buffer.set(bytes, at);
    at = writeVarint(this.buffer, at + bytes.length, postings.length);
    this.buffer.set(postings, at);
    this.size = at + postings.length;
    if (this.size >= BLOCK_BYTES) this.finish();
  }

  /** Hands on the block being filled, if any. */
  finish(): void {
    if (this.first === undefined) return;
    this.onBlock(this.first, this.buffer.slice(0, this.size));
    this.size = 0;
    this.first = undefined;
    if (this.buffer.length > BLOCK_BYTES * 2) this.buffer = new Uint8Array(BLOCK_BYTES * 2);
  }
}

/** Calls `visit` with each entry of a block, in word order; stops when it returns false. */
export function forEachEntry(block: Uint8Array, visit: (entry: BlockEntry) => boolean | void): void {
  let at = 0;
  while (at < block.length) {
    const [termLength, termStart] = readVarint(block, at);
    const termEnd = termStart + termLength;
    const [postingsLength, postingsStart] = readVarint(block, termEnd);
    const postingsEnd = postingsStart + postingsLength;
    if (visit({ block, termStart, termEnd, postingsStart, postingsEnd }) === false) return;
    at = postingsEnd;
  }
}

/** Byte order of two entries' words (UTF-8 bytes order as code points do, as SQLite compares text). */
export function compareTerms(a: BlockEntry, b: BlockEntry): number {
  const aLength = a.termEnd - a.termStart;
  const bLength = b.termEnd - b.termStart;
  const n = Math.min(aLength, bLength);
  for (let i = 0; i < n; i++) {
    const d = a.block[a.termStart + i]! - b.block[b.termStart + i]!;
    if (d !== 0) return d;
  }
  return aLength - bLength;
}

/** Where an entry's word stands against a prefix: -1 before the words it starts, 0 one of them, 1 after. */
export function placeOf(entry: BlockEntry, prefix: Uint8Array): -1 | 0 | 1 {
  const { block, termStart, termEnd } = entry;
  const length = termEnd - termStart;
  const n = Math.min(length, prefix.length);
  for (let i = 0; i < n; i++) {
    const d = block[termStart + i]! - prefix[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return length < prefix.length ? -1 : 0;
}
