import type { EntityDocument } from '../port.js';
import { columnText, type IndexedEntity } from './indexed-entity.js';
import { indexWords } from './text-words.js';

/** Group of the postings that hold every text column, weighted (see text-index-schema.ts). */
export const ALL_COLUMNS = 0;

/**
 * Frequencies in group ALL_COLUMNS are the boost-weighted word counts times this: boosts are
 * multiples of 0.5, so the stored frequency is an integer and bm25 reads the exact weighted count.
 */
export const WEIGHT_SCALE = 2;

/** One document's words: per postings group, word → frequency; and its length in words. */
export interface DocumentWords {
  readonly groups: ReadonlyMap<number, ReadonlyMap<string, number>>;
  readonly length: number;
}

/**
 * The words of a document's text columns: group ALL_COLUMNS weights each column's words by its boost
 * (×WEIGHT_SCALE), group c + 1 counts the words of autocomplete column c. The length counts every word
 * of every column, as bm25's document length does.
 */
export function documentWords(
  entity: IndexedEntity,
  fields: EntityDocument['fields'],
  texts: readonly string[] = columnTexts(entity, fields),
): DocumentWords {
  const all = new Map<string, number>();
  const groups = new Map<number, Map<string, number>>([[ALL_COLUMNS, all]]);
  let length = 0;
  entity.columns.forEach((column, c) => {
    const words = indexWords(texts[c] ?? '');
    length += words.length;
    const weight = Math.round(column.weight * WEIGHT_SCALE);
    const own = column.autocomplete ? new Map<string, number>() : undefined;
    if (own !== undefined) groups.set(c + 1, own);
    for (const word of words) {
      all.set(word, (all.get(word) ?? 0) + weight);
      if (own !== undefined) own.set(word, (own.get(word) ?? 0) + 1);
    }
  });
  return { groups, length };
}

/** The text of each full-text column of a document, in column order: its words change only with these. */
export function columnTexts(entity: IndexedEntity, fields: EntityDocument['fields']): string[] {
  return entity.columns.map((column) => columnText(column, fields));
}
