/**
 * Turns the port's urnLike (SQL LIKE: `%` any run, `_` one character, `\` escapes) into a SQLite GLOB
 * pattern. GLOB compares case-sensitively, as URNs are, and SQLite can turn a GLOB with a literal
 * prefix into an index range, where its LIKE (ASCII case-insensitive) would scan every row.
 */
export function likeToGlob(like: string): string {
  let glob = '';
  for (let i = 0; i < like.length; i += 1) {
    const char = like[i] ?? '';
    if (char === '\\' && i + 1 < like.length) {
      i += 1;
      glob += literal(like[i] ?? '');
    } else if (char === '%') glob += '*';
    else if (char === '_') glob += '?';
    else glob += literal(char);
  }
  return glob;
}

function literal(char: string): string {
  return char === '*' || char === '?' || char === '[' ? `[${char}]` : char;
}
