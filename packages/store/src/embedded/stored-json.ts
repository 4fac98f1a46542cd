import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { JSON_DICTIONARY_1, JSON_SUBSTITUTIONS_1 } from './json-dictionary.js';

/**
 * How the aspect store keeps a JSON text (an aspect value or its system metadata) in a column:
 *
 * - TEXT: the JSON text with common member names and URN prefixes (JSON_SUBSTITUTIONS_1) replaced by
 *   tokens of one or two control characters. A JSON text holds no unescaped control character, so a text without
 *   any (every row written before schema 4) reads back as itself.
 * - BLOB: a codec byte, then that codec's data. Codec 1 is raw deflate with JSON_DICTIONARY_1 as
 *   the preset dictionary, for long texts.
 *
 * Why two: a zlib call costs about 10 to 15 µs whatever the size (node:zlib builds a stream per call),
 * more than JSON.parse of a short value and about a third of that of a 3 KB schema. Long values,
 * which deflate shrinks 4 to 10 times, are deflated; short ones (tags, ownership, system metadata)
 * get the substitutions, which cost about a microsecond to undo and save most of what deflate would.
 *
 * The value is encoded, not the row: the URN, aspect name, actor and run id are kept once each in the
 * file's dictionaries and keyed by their ids (schema 5, keyed-by-ids.ts).
 */
export type StoredJson = string | Buffer;

/** Codec 1: raw deflate (RFC 1951) with JSON_DICTIONARY_1 as the preset dictionary. */
const DEFLATE_DICTIONARY_1 = 1;
const DICTIONARY_1 = Buffer.from(JSON_DICTIONARY_1, 'utf8');

/** Texts at least this long are deflated (when that is shorter); shorter ones are substituted. */
const DEFLATE_MIN_LENGTH = 512;

/**
 * The control characters a token is made of: U+0001 to U+001E without tab, line feed and carriage
 * return, which are JSON whitespace (a hand-written text may hold them). U+001F followed by one of
 * them is a second token set, for JSON_SUBSTITUTIONS_1 past the first 27. No substitution holds a
 * control character, so a later one never matches across a token an earlier one left.
 */
const TOKEN_CHARS = Array.from({ length: 0x1f }, (_, code) => String.fromCharCode(code)).filter(
  (char) => char !== '\0' && char !== '\t' && char !== '\n' && char !== '\r',
);
const TOKENS = [...TOKEN_CHARS, ...TOKEN_CHARS.map((char) => `\x1f${char}`)];
if (
  JSON_SUBSTITUTIONS_1.length > TOKENS.length ||
  JSON_SUBSTITUTIONS_1.some((text) => /[\0-\x1f]/.test(text))
) {
  throw new Error('JSON_SUBSTITUTIONS_1 does not fit its tokens');
}
const SUBSTITUTIONS = JSON_SUBSTITUTIONS_1.map((text, index) => ({ text, token: TOKENS[index]! }));
const TEXT_OF_TOKEN = new Map(SUBSTITUTIONS.map(({ text, token }) => [token, text]));
/** Any character a token may hold: a text with none is plain JSON. */
const ANY_TOKEN = /[\x01-\x08\x0b\x0c\x0e-\x1f]/;
const EVERY_TOKEN = /\x1f[\x01-\x08\x0b\x0c\x0e-\x1e]|[\x01-\x08\x0b\x0c\x0e-\x1e]/g;

/** The column value for a JSON text. */
export function encodeJson(text: string): StoredJson {
  // A text holding a token character (never one JSON.stringify wrote) would read back changed if
  // kept as text, so it is deflated whatever its length.
  const hasToken = ANY_TOKEN.test(text);
  if (text.length >= DEFLATE_MIN_LENGTH || hasToken) {
    const deflated = deflate(text);
    // text.length counts UTF-16 units, at most the UTF-8 byte count, so this errs toward text.
    if (deflated.length < text.length || hasToken) return deflated;
  }
  let out = text;
  for (const { text: common, token } of SUBSTITUTIONS) {
    if (out.includes(common)) out = out.replaceAll(common, token);
  }
  return out;
}

/** encodeJson for a nullable column. */
export function encodeNullableJson(text: string | null): StoredJson | null {
  return text === null ? null : encodeJson(text);
}

/** The JSON text a column value holds. */
export function decodeJson(stored: StoredJson): string {
  if (typeof stored === 'string') {
    if (!ANY_TOKEN.test(stored)) return stored;
    return stored.replace(EVERY_TOKEN, (token) => {
      const text = TEXT_OF_TOKEN.get(token);
      // Only a newer build's table has more tokens, and it also raises the schema version.
      if (text === undefined) throw new Error('stored JSON holds a token this build does not know');
      return text;
    });
  }
  const codec = stored[0];
  if (codec !== DEFLATE_DICTIONARY_1) {
    // Only a newer build writes another codec, and it also raises the schema version this build refuses.
    throw new Error(`stored JSON has codec ${codec}, which this build does not know`);
  }
  return inflateRawSync(stored.subarray(1), { dictionary: DICTIONARY_1 }).toString('utf8');
}

/** decodeJson for a nullable column. */
export function decodeNullableJson(stored: StoredJson | null): string | null {
  return stored === null ? null : decodeJson(stored);
}

function deflate(text: string): Buffer {
  const deflated = deflateRawSync(text, { dictionary: DICTIONARY_1 });
  const stored = Buffer.allocUnsafe(deflated.length + 1);
  stored[0] = DEFLATE_DICTIONARY_1;
  deflated.copy(stored, 1);
  return stored;
}
