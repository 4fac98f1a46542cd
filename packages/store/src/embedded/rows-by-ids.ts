import type { EncodedAspectRow } from './aspect-row.js';
import type { DictionaryCache } from './dictionary-cache.js';

/**
 * Reads of `aspects` that name the aspect and the actor of a row by their ids and look the texts up
 * in the connection's caches (DictionaryCache), instead of joining aspect_names and actors for every
 * row; the rows of an entity are then put in aspect name order here, not by a sorter in SQLite,
 * which copies each row (value included) into a temporary b-tree per entity.
 */

/** The columns of an `aspects` row under ASPECT_COLUMNS' names, with ids for the name and actor. */
export const ID_COLUMNS = `a.aspect_id AS aspect_id, a.version AS version, a.metadata AS metadata,
  a.system_metadata AS system_metadata, a.created_on AS created_on, a.created_by AS created_by,
  a.created_for AS created_for, a.created_message AS created_message`;

/** A row read with ID_COLUMNS (and, where the query gives it, its URN). */
export type IdRow = Omit<EncodedAspectRow, 'urn' | 'aspect' | 'created_by'> & {
  readonly urn?: string;
  readonly aspect_id: number;
  readonly created_by: number;
};

export interface RowTexts {
  readonly aspectNames: DictionaryCache;
  readonly actors: DictionaryCache;
}

/** The row with its texts, under `urn` (or the URN the query gave it). */
export function withTexts(row: IdRow, urn: string, texts: RowTexts): EncodedAspectRow {
  return {
    urn,
    aspect: texts.aspectNames.text(row.aspect_id),
    version: row.version,
    metadata: row.metadata,
    system_metadata: row.system_metadata,
    created_on: row.created_on,
    created_by: texts.actors.text(row.created_by),
    created_for: row.created_for,
    created_message: row.created_message,
  };
}

/** One entity's rows, by aspect name. */
export function byAspectName(rows: EncodedAspectRow[]): EncodedAspectRow[] {
  return rows.length < 2 ? rows : rows.sort((a, b) => compareText(a.aspect, b.aspect));
}

/**
 * A page of version-0 rows read in URN order (each entity's rows together, in id order), put in
 * (URN, aspect name) order: rows after `after` only, `start` of them skipped, then `limit`. Reads
 * `rows` no further than the entity that fills the page. Runs no statement while `rows` is being
 * read (better-sqlite3 refuses one while an iterator is open): the texts are looked up afterwards.
 */
export function pageInUrnOrder(
  rows: Iterable<IdRow>,
  texts: RowTexts,
  page: { readonly after?: { urn: string; aspect: string }; readonly start: number; readonly limit: number },
): EncodedAspectRow[] {
  const wanted = page.start + page.limit;
  const read: IdRow[] = [];
  // Rows of the cursor's entity may come before it, so they do not count toward the page.
  let counted = 0;
  for (const row of rows) {
    const last = read[read.length - 1];
    // Leaving the loop early ends the statement (the iterator's return).
    if (last !== undefined && last.urn !== row.urn && counted >= wanted) break;
    read.push(row);
    if (row.urn !== page.after?.urn) counted += 1;
  }
  const out: EncodedAspectRow[] = [];
  let skip = page.start;
  for (let at = 0; at < read.length && out.length < page.limit;) {
    const urn = read[at]!.urn!;
    const entity: EncodedAspectRow[] = [];
    for (; at < read.length && read[at]!.urn === urn; at += 1) entity.push(withTexts(read[at]!, urn, texts));
    for (const row of byAspectName(entity)) {
      if (out.length >= page.limit) break;
      const after = page.after;
      if (after !== undefined && urn === after.urn && compareText(row.aspect, after.aspect) <= 0) continue;
      if (skip > 0) skip -= 1;
      else out.push(row);
    }
  }
  return out;
}

/**
 * Texts in the order SQLite's BINARY collation gives them (their UTF-8 bytes, so by code point),
 * which the `<` of JavaScript strings (UTF-16 code units) does not for characters past U+FFFF.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

/** A code unit moved so surrogates (U+D800..U+DFFF) sort above U+E000..U+FFFF, as code points do. */
function codePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
