import { randomBytes } from 'node:crypto';
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
 * Where a request came from. Source IP is the raw `X-Forwarded-For` value when present (as the
 * ecosystem records it), else the socket's address; the trace id comes from a valid W3C `traceparent`,
 * else a new one.
 */
export function requestOriginOf(req: Request): RequestOrigin {
  const forwarded = req.get('x-forwarded-for');
  const traceparent = TRACEPARENT.exec(req.get('traceparent')?.trim().toLowerCase() ?? '');
  const traceId =
    traceparent?.[1] !== undefined && traceparent[1] !== NO_TRACE ? traceparent[1] : newTraceId();
  return {
    sourceIp: forwarded !== undefined && forwarded !== '' ? forwarded : (req.socket.remoteAddress ?? ''),
    userAgent: req.get('user-agent') ?? '',
    eventSource: eventSourceOf(req.path),
    traceId,
  };
}

function newTraceId(): string {
  return randomBytes(16).toString('hex');
}
