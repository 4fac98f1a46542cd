import { ValidationError } from '@catalog/model';
import type { SearchSortValue, SortCriterion } from '../../application/entity-pages.js';

/** What a scrollId carries: the sort it was made for and the last hit's keyset position. */
interface Cursor {
  readonly sort: readonly [string, string][];
  readonly after: readonly SearchSortValue[];
}

/** An opaque scrollId (base64url JSON) continuing after a hit with these sort values. */
export function encodeScrollId(sort: readonly SortCriterion[], after: readonly SearchSortValue[]): string {
  const cursor: Cursor = { sort: sort.map((s) => [s.field, s.order]), after };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/**
 * Where a scrollId continues: `''` for none. A scrollId of another sort is refused (the ecosystem asks
 * for the same query and sort with it); one made before cursors carried their sort (a bare urn) still
 * continues an urn-ordered scroll.
 */
export function decodeScrollId(
  scrollId: string | undefined,
  sort: readonly SortCriterion[],
): string | readonly SearchSortValue[] {
  if (scrollId === undefined || scrollId === '') return '';
  const text = Buffer.from(scrollId, 'base64url').toString('utf8');
  if (text.startsWith('urn:li:') && sort.length === 0) return text;
  let cursor: Cursor;
  try {
    cursor = JSON.parse(text) as Cursor;
  } catch {
    throw new ValidationError(`Invalid scrollId: ${scrollId}`);
  }
  if (!Array.isArray(cursor?.after) || !Array.isArray(cursor.sort))
    throw new ValidationError(`Invalid scrollId: ${scrollId}`);
  const same =
    cursor.sort.length === sort.length &&
    cursor.sort.every(([field, order], i) => sort[i]!.field === field && sort[i]!.order === order);
  if (!same)
    throw new ValidationError(
      'The scrollId belongs to a scroll with another sort; pass the same sort with it',
    );
  return cursor.after;
}
