import { randomFillSync } from 'node:crypto';
import type { Request } from 'express';
import type { EventSource, RequestOrigin } from '@catalog/auth';

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const NO_TRACE = '0'.repeat(32);

/** The API a path belongs to, as audit events name it. */
export function eventSourceOf(path: string): EventSource {
  if (path === '/api/graphql' || path === '/api/v2/graphql') return 'GRAPHQL';
  if (path.startsWith('/openapi/')) return 'OPENAPI';
  return 'RESTLI';
}

/**
 * Where a request came from. Source IP is the client's address as express derives it: the socket's
 * address, or, from a trusted proxy (TRUSTED_PROXIES, express's `trust proxy`), the nearest address in
 * `X-Forwarded-For` that is not itself a trusted proxy, so a client cannot choose what is recorded. The
 * trace id comes from a valid W3C `traceparent`, else a new one.
 */
export function requestOriginOf(req: Request): RequestOrigin {
  return {
    sourceIp: req.ip ?? req.socket.remoteAddress ?? '',
    userAgent: req.get('user-agent') ?? '',
    eventSource: eventSourceOf(req.path),
    // The request logging already took it (or made one) as the request's id: one id per request.
    traceId: req.traceId ?? traceIdOf(req.get('traceparent')) ?? newTraceId(),
    // Set by the request logging (requestLogging) before any route.
    ...(typeof req.id === 'string' ? { requestId: req.id } : {}),
  };
}

/** The trace id of a valid W3C `traceparent` header value (not the all-zero one), else undefined. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  if (traceparent === undefined) return undefined;
  const match = TRACEPARENT.exec(traceparent.trim().toLowerCase());
  return match?.[1] !== undefined && match[1] !== NO_TRACE ? match[1] : undefined;
}

/** Random bytes drawn in blocks: one call to the generator per 512 trace ids, not one per request. */
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

/** A new trace id: the time in microseconds (16 hex digits) then 8 random bytes, so ids sort by time. */
export function newTraceId(): string {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const random = POOL.toString('hex', poolOffset, poolOffset + 8);
  poolOffset += 8;
  // Microseconds since the epoch stay below 2^53 until the year 2255: exact as a double.
  return (Date.now() * 1000).toString(16).padStart(16, '0') + random;
}
