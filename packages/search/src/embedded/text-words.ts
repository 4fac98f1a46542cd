const NON_WORD = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * The words of a text as the embedded text index keys them: runs of letters and digits, lower case,
 * diacritics removed (`Café` → `cafe`), as SQLite's unicode61 tokenizer with remove_diacritics did for
 * the FTS5 tables this index replaced. Both the indexed text and the query terms go through it.
 */
export function indexWords(text: string): string[] {
  const folded = NOT_ASCII.test(text) ? text.normalize('NFD').replace(MARKS, '') : text;
  return folded
    .toLowerCase()
    .split(NON_WORD)
    .filter((word) => word !== '');
}

/**
 * A query term (a word of the search input's tokenize) as the index keys words: folded as indexWords
 * folds. Folding removes only combining marks, so a word stays one word.
 */
export function indexTerm(term: string): string {
  return indexWords(term)[0] ?? '';
}

/**
 * The smallest string greater than every string that starts with `prefix` (SQLite compares text by
 * its UTF-8 bytes, which order as code points): the prefix with its last code point incremented.
 */
export function prefixUpperBound(prefix: string): string {
  const points = [...prefix];
  const last = points.pop();
  if (last === undefined) return '\u{10FFFF}';
  return points.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}
