import { ValidationError } from '@catalog/model';
import type { AuditCursor } from '../../application/audit-search.js';

/**
 * The audit search's scrollId: base64 of `{"sort":[<timestamp>,"<id>"],"pitId":null,"expirationTime":0}`,
 * shaped like the ecosystem's search_after token (whose sort values are timestamp, type, actor). Clients
 * treat it as opaque and pass it back unchanged.
 */
export function encodeAuditScrollId(cursor: AuditCursor): string {
  const token = { sort: [cursor.timestamp, cursor.id], pitId: null, expirationTime: 0 };
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64');
}

/** Base64, standard or URL-safe alphabet, padded or not. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Where a scrollId resumes; a ValidationError (400) when it is not one this service issues. */
export function decodeAuditScrollId(scrollId: string): AuditCursor {
  const invalid = () => new ValidationError(`Invalid scrollId: ${JSON.stringify(scrollId)}`);
  if (!BASE64.test(scrollId)) throw invalid();
  let token: unknown;
  try {
    token = JSON.parse(Buffer.from(scrollId, 'base64').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof token !== 'object' || token === null || Array.isArray(token)) throw invalid();
  const sort = (token as { sort?: unknown }).sort;
  if (!Array.isArray(sort) || sort.length !== 2) throw invalid();
  const [timestamp, id] = sort as [unknown, unknown];
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp) || typeof id !== 'string') throw invalid();
  return { timestamp, id };
}
