import type { IncomingMessage } from 'node:http';
import { newTraceId, traceIdOf } from '../auth/request-origin.js';

/** What a client-given `X-Request-Id` may be: visible ASCII, no spaces, at most 128 characters. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * A request's id: the trace id of its W3C `traceparent`, else its `X-Request-Id` (when it is a sane
 * token: it is echoed in a header and written to logs), else a new one in the trace-id format. With it,
 * the trace id when the id is one (taken from `traceparent` or made here): a client's `X-Request-Id` is
 * an id but no trace id.
 */
export function requestIdsOf(req: IncomingMessage): { id: string; traceId?: string } {
  const traceparent = req.headers['traceparent'];
  const traced = traceIdOf(typeof traceparent === 'string' ? traceparent : undefined);
  if (traced !== undefined) return { id: traced, traceId: traced };
  const given = req.headers['x-request-id'];
  const candidate = (typeof given === 'string' ? given : given?.[0])?.trim();
  if (candidate !== undefined && CLIENT_REQUEST_ID.test(candidate)) return { id: candidate };
  const made = newTraceId();
  return { id: made, traceId: made };
}
