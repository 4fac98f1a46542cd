import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@catalog/runtime';
import { requestIdOf } from './request-id.js';

/** The response header that returns a request's id (the one its log lines carry as httpRequestId). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Probes call these every few seconds: logged at debug unless they fail. */
const PROBE_PATHS = new Set(['/health', '/health/live', '/health/ready']);

/**
 * One log line per request when its response ends: method, path (no query string), status, duration
 * and the request id, which the response returns in `X-Request-Id` and the request's proposals carry
 * to persistence and the indexer. Headers, query strings and bodies are not logged, so no credential
 * (Authorization, cookies, tokens in a query) reaches the line.
 */
export function requestLogging(logger: Logger): RequestHandler {
  const line = (req: IncomingMessage, res: ServerResponse, durationMs: number) => ({
    method: req.method,
    path: pathOf(req),
    status: res.statusCode,
    durationMs,
  });
  return pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'httpRequestId', responseTime: 'durationMs' },
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customLogLevel: (req, res, error) => {
      if (error !== undefined || res.statusCode >= 500) return 'error';
      if (PROBE_PATHS.has(pathOf(req)) && res.statusCode < 400) return 'debug';
      return 'info';
    },
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customSuccessObject: (req, res, value: { durationMs: number }) => line(req, res, value.durationMs),
    customErrorObject: (req, res, error, value: { durationMs: number }) => ({
      ...line(req, res, value.durationMs),
      // A 5xx without an error of its own is described by its status alone.
      ...(error.message.startsWith('failed with status code') ? {} : { err: error }),
    }),
  });
}

function pathOf(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
