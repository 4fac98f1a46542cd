import { writeVarint } from './varint.js';

/**
 * A postings list: the documents that hold a term, ascending by id, each with a frequency (a
 * non-negative integer). Stored as unsigned LEB128 varints, per posting the id's distance from the
 * previous id and then the frequency: a million-document list of a common word takes 2-3 bytes per
 * document.
 */
export function encodePostings(ids: ArrayLike<number>, freqs: ArrayLike<number>, n: number): Uint8Array {
  const out = new Uint8Array(n * 10);
  let at = 0;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    at = writeVarint(out, at, id - previous);
    at = writeVarint(out, at, freqs[i]!);
    previous = id;
  }
  return out.slice(0, at);
}

/**
 * Calls `visit(id, freq)` for each posting of an encoded list, in id order. The varints are read
 * inline (as TextIndexReader.accumulate does): this runs once per posting of every merge.
 */
export function decodePostings(bytes: Uint8Array, visit: (id: number, freq: number) => void): void {
  let at = 0;
  let id = 0;
  const end = bytes.length;
  while (at < end) {
    let delta = 0;
    let shift = 1;
    let byte: number;
    do {
      byte = bytes[at++]!;
      delta += (byte & 0x7f) * shift;
      shift *= 128;
    } while (byte >= 0x80);
    let freq = 0;
    shift = 1;
    do {
      byte = bytes[at++]!;
      freq += (byte & 0x7f) * shift;
      shift *= 128;
    } while (byte >= 0x80);
    id += delta;
    visit(id, freq);
  }
}
