/**
 * Turns the port's urnLike (SQL LIKE: `%` any run, `_` one character, `\` makes the next character
 * literal, a trailing `\` is itself literal) into an anchored, case-sensitive regular expression source
 * that means the same on MongoDB (PCRE) and FerretDB (Go RE2). `[\s\S]` rather than `.` so a newline
 * matches too, and `\z` rather than `$`, which in PCRE also matches before a final newline. A literal
 * prefix stays a plain prefix, so MongoDB can turn it into index bounds.
 */
export function likeToRegex(like: string): string {
  let source = '^';
  for (let i = 0; i < like.length; i += 1) {
    const char = like[i] ?? '';
    if (char === '\\' && i + 1 < like.length) {
      i += 1;
      source += literal(like[i] ?? '');
    } else if (char === '%') source += '[\\s\\S]*';
    else if (char === '_') source += '[\\s\\S]';
    else source += literal(char);
  }
  return `${source}\\z`;
}

function literal(char: string): string {
  return /[\\^$.|?*+()[\]{}\-/]/.test(char) ? `\\${char}` : char;
}
