/**
 * How applied_requests keys a request id (schema 5). Callers choose request ids; most hold a UUID
 * (the gateway's are one, the bootstrap's `bootstrap-<uuid>`), whose 36 characters of text take 36
 * bytes in the table and 36 more in its key index.
 *
 * An id holding a UUID in canonical form (lowercase hex, dashes at 8-4-4-4-12) is stored as a BLOB:
 * one byte for the UTF-8 length of what precedes the (first) UUID, that text, the UUID's 16 bytes,
 * then the UTF-8 of what follows. Any other id is stored as the TEXT it is. The BLOB of an id can be
 * read back to that id alone, and a BLOB never equals a TEXT, so two ids never share a key.
 *
 * The key is only ever compared, never read back: a record is found by the key of the id asked for.
 */
export type RequestKey = string | Buffer;

const CANONICAL_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const UUID_TEXT_LENGTH = 36;
/** The longest text before the UUID that its one length byte can give. */
const MAX_PREFIX_BYTES = 255;
/**
 * A surrogate code unit. UTF-8 cannot hold a lone one (two texts with different lone surrogates
 * would encode alike), so an id with any stays text.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

export function requestKey(requestId: string): RequestKey {
  const match = CANONICAL_UUID.exec(requestId);
  if (match === null || SURROGATE.test(requestId)) return requestId;
  const prefix = Buffer.from(requestId.slice(0, match.index), 'utf8');
  if (prefix.length > MAX_PREFIX_BYTES) return requestId;
  const uuid = Buffer.from(match[0].replaceAll('-', ''), 'hex');
  const rest = Buffer.from(requestId.slice(match.index + UUID_TEXT_LENGTH), 'utf8');
  return Buffer.concat([Buffer.of(prefix.length), prefix, uuid, rest]);
}
