import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '@catalog/runtime';
import { requestIdsOf } from './request-id.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (see requestIdsOf), set first thing by requestLogging. */
    id?: string;
    /** Its W3C trace id when the id is one (not a client's X-Request-Id), set with it. */
    traceId?: string;
  }
}

/** The response header that returns a request's id (the one its log lines carry as httpRequestId). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Probes call these every few seconds: logged at debug unless they fail. */
const PROBE_PATHS = new Set(['/health', '/health/live', '/health/ready']);

/**
 * One log line per request when its response ends (or the connection closes first): method, path (no
 * query string), status, duration and the request id, which the response returns in `X-Request-Id` and
 * the request's proposals carry to persistence and the indexer. Headers, query strings and bodies are
 * not logged, so no credential (Authorization, cookies, tokens in a query) reaches the line.
 *
 * Written by hand rather than with pino-http: that library builds a child logger and runs its
 * serializers for every request even when the line's level is off, which cost a sixth of the read
 * path's throughput (`pnpm bench:read`); this does nothing beyond the id unless the line is logged.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const { id, traceId } = requestIdsOf(req);
    req.id = id;
    if (traceId !== undefined) req.traceId = traceId;
    res.setHeader(REQUEST_ID_HEADER, id);
    // `close` follows `finish` on every response, and comes alone when the connection closed first.
    res.once('close', () => logLine(logger, req, res, id, started));
    next();
  };
}

function logLine(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  started: bigint,
): void {
  const path = pathOf(req);
  // The connection closed before the response ended: the client went away (or was cut off by the
  // server's request timeout, which answered 408 itself). The client's doing, not a server failure,
  // unless a 5xx had already been sent.
  const aborted = !res.writableFinished;
  const failed = res.statusCode >= 500 && res.headersSent;
  const level = failed
    ? 'error'
    : aborted
      ? 'info'
      : PROBE_PATHS.has(path) && res.statusCode < 400
        ? 'debug'
        : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
  logger[level](
    {
      method: req.method,
      path,
      ...(res.headersSent || !aborted ? { status: res.statusCode } : {}),
      durationMs: Math.round(durationMs * 1000) / 1000,
      httpRequestId: id,
      ...(aborted ? { aborted: true } : {}),
    },
    failed
      ? 'request failed'
      : aborted
        ? 'request aborted: the connection closed before the response was sent'
        : 'request completed',
  );
}

function pathOf(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
