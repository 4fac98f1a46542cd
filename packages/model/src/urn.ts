import { ValidationError } from './errors.js';
import type { Urn } from './types.js';

const PREFIX = 'urn:li:';
const ENTITY_TYPE = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Parses `urn:li:<entityType>:<id>`. An id that starts with `(` is composite: it must end with the `)`
 * that closes it, and its parts are split on top-level commas only, so parts may be URNs themselves
 * (`urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)`). Parentheses must balance everywhere,
 * because an unbalanced id could not be nested inside another URN without becoming ambiguous. No
 * control character (C0 or DEL) is allowed anywhere: a newline or NUL in a key would forge log lines
 * and search documents and split the lines of every text export. Throws ValidationError naming the
 * problem.
 */
export function parseUrn(raw: string): Urn {
  if (typeof raw !== 'string') throw invalid(String(raw), 'must be a string');
  checkNoControlCharacters(raw);
  if (!raw.startsWith(PREFIX)) throw invalid(raw, `must start with "${PREFIX}"`);
  const rest = raw.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon < 0) throw invalid(raw, 'must have the form urn:li:<entityType>:<id>');
  const entityType = rest.slice(0, colon);
  if (!ENTITY_TYPE.test(entityType)) {
    throw invalid(raw, `entity type "${entityType}" must be a letter followed by letters or digits`);
  }
  const id = rest.slice(colon + 1);
  const parts = splitId(raw, id);
  return { raw, entityType, id, parts };
}

/** True when `raw` is a string that parseUrn accepts. */
export function isUrn(raw: unknown): raw is string {
  if (typeof raw !== 'string') return false;
  try {
    parseUrn(raw);
    return true;
  } catch {
    return false;
  }
}

/**
 * Formats a URN from its entity type and id parts: one part gives a simple id, several a parenthesized
 * composite id. A single part that itself starts with `(` is parenthesized too, since written bare it
 * would read back as a composite. The result is parsed before it is returned, so bad parts (empty,
 * whitespace-only, unbalanced parentheses) throw ValidationError here rather than later.
 */
export function formatUrn(entityType: string, parts: readonly string[]): string {
  if (parts.length === 0) throw new ValidationError(`Cannot format a ${entityType} urn without id parts`);
  const only = parts.length === 1 ? parts[0] : undefined;
  const id = only !== undefined && !only.startsWith('(') ? only : `(${parts.join(',')})`;
  const raw = `${PREFIX}${entityType}:${id}`;
  const parsed = parseUrn(raw);
  if (parsed.parts.length !== parts.length || parsed.parts.some((p, i) => p !== parts[i])) {
    throw new ValidationError(
      `Cannot format a ${entityType} urn from parts ${JSON.stringify(parts)}: a part contains a top-level comma`,
    );
  }
  return raw;
}

/**
 * Encodes a URN as one URL path segment. Stricter than encodeURIComponent (it also escapes `!'()*`),
 * matching the ecosystem's SDK, which quotes every reserved character; Rest.li treats parentheses as
 * syntax, so leaving them bare would be misread by strict routers.
 */
export function urnToPathSegment(urn: string): string {
  return strictEncode(urn);
}

/**
 * Decodes a path segment made by urnToPathSegment (or any percent-encoding of a URN). A `%0A` or `%00`
 * decodes to a control character, which no urn may hold: that is a ValidationError here too.
 */
export function urnFromPathSegment(segment: string): string {
  let urn: string;
  try {
    urn = decodeURIComponent(segment);
  } catch (error) {
    throw new ValidationError(`Invalid URL-encoded urn "${segment}"`, { cause: error });
  }
  checkNoControlCharacters(urn);
  return urn;
}

/** Encodes a URN as a query parameter value (same escaping as a path segment). */
export function urnToQueryValue(urn: string): string {
  return strictEncode(urn);
}

function strictEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function splitId(raw: string, id: string): string[] {
  if (id.length === 0) throw invalid(raw, 'the id is empty');
  if (id.trim().length === 0) throw invalid(raw, 'the id is whitespace only');
  if (!id.startsWith('(')) {
    checkBalanced(raw, id);
    return [id];
  }
  if (!id.endsWith(')')) throw invalid(raw, 'a composite id must end with ")"');
  const parts: string[] = [];
  let depth = 0;
  let start = 1;
  for (let i = 0; i < id.length; i++) {
    const c = id[i];
    if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth < 0) throw invalid(raw, `unbalanced ")" at offset ${i}`);
      if (depth === 0 && i !== id.length - 1) {
        throw invalid(raw, `the composite id closes at offset ${i}, before its end`);
      }
    } else if (c === ',' && depth === 1) {
      parts.push(checkPart(raw, id.slice(start, i)));
      start = i + 1;
    }
  }
  if (depth !== 0) throw invalid(raw, 'unbalanced "("');
  parts.push(checkPart(raw, id.slice(start, id.length - 1)));
  return parts;
}

function checkPart(raw: string, part: string): string {
  if (part.length === 0) throw invalid(raw, 'a composite id has an empty part');
  if (part.trim().length === 0) throw invalid(raw, 'a composite id has a whitespace-only part');
  return part;
}

function checkBalanced(raw: string, id: string): void {
  let depth = 0;
  for (const c of id) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) throw invalid(raw, 'unbalanced ")"');
  }
  if (depth !== 0) throw invalid(raw, 'unbalanced "("');
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Throws ValidationError naming the first control character of `raw` and where it is. */
export function checkNoControlCharacters(raw: string): void {
  // test() first: it allocates nothing, and almost every urn passes.
  if (!CONTROL_CHARACTER.test(raw)) return;
  const at = raw.search(CONTROL_CHARACTER);
  const code = `U+${raw.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
  throw new ValidationError(
    `Invalid urn ${printable(raw)}: it contains the control character ${code} at offset ${at}; a urn may not contain control characters`,
  );
}

/** The urn quoted with its control characters escaped, so that a message about it stays one line. */
function printable(raw: string): string {
  return JSON.stringify(raw).replace(/\u007f/g, '\\u007f');
}

function invalid(raw: string, problem: string): ValidationError {
  return new ValidationError(`Invalid urn "${raw}": ${problem}`);
}

/** The longest urn a write accepts, in bytes once form-URL-encoded (the ecosystem's URN_NUM_BYTES_LIMIT). */
export const URN_MAX_ENCODED_BYTES = 512;

/** The browse-path delimiter, which no urn may contain. */
export const URN_DELIMITER_SEPARATOR = '\u241F';

/** The entity type whose urns (a dataset urn plus a field path) are exempt from the length limit. */
const LENGTH_EXEMPT_ENTITY_TYPE = 'schemaField';

/**
 * The ecosystem's checks on the urn of every write (UrnValidationUtil.validateUrn), with its messages:
 * no leading or trailing whitespace (Java's `trim`, so any character up to U+0020), at most
 * URN_MAX_ENCODED_BYTES once form-URL-encoded unless it is a schemaField urn, and no `␟`; and, as
 * every urn parseUrn reads, no control character. Reads do not apply the ecosystem's checks, so an urn
 * stored before they existed can still be read. Throws ValidationError.
 */
export function checkUrnForWrite(raw: string): void {
  if (raw.length > 0 && (raw.charCodeAt(0) <= 0x20 || raw.charCodeAt(raw.length - 1) <= 0x20)) {
    throw new ValidationError('Error: cannot provide an URN with leading or trailing whitespace');
  }
  checkNoControlCharacters(raw);
  const entityType = /^urn:li:([^:]*):/.exec(raw)?.[1];
  if (entityType !== LENGTH_EXEMPT_ENTITY_TYPE && formEncodedLength(raw) > URN_MAX_ENCODED_BYTES) {
    throw new ValidationError(
      `Error: cannot provide an URN longer than ${URN_MAX_ENCODED_BYTES} bytes (when URL encoded)`,
    );
  }
  if (raw.includes(URN_DELIMITER_SEPARATOR)) {
    throw new ValidationError(`Error: URN cannot contain ${URN_DELIMITER_SEPARATOR} character`);
  }
}

/**
 * Length of `application/x-www-form-urlencoded` UTF-8 encoding (Java's URLEncoder): letters, digits and
 * `.-*_` stay, a space becomes `+`, every other byte becomes `%XX`. Every character takes at least one
 * byte, so a longer string is over the limit without encoding it (a megabyte urn costs nothing).
 */
function formEncodedLength(raw: string): number {
  if (raw.length > URN_MAX_ENCODED_BYTES) return raw.length;
  let length = 0;
  for (const byte of Buffer.from(raw, 'utf8')) length += FORM_SAFE[byte] === 1 ? 1 : 3;
  return length;
}

const FORM_SAFE = ((): Uint8Array => {
  const safe = new Uint8Array(256);
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-*_ ')
    safe[c.charCodeAt(0)] = 1;
  return safe;
})();
