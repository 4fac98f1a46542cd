import type { ErrorRequestHandler, Response } from 'express';
import { isDomainError, type ErrorCode } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { randomUUID } from 'node:crypto';
import { outageOf, RETRY_AFTER_SECONDS } from '../outage.js';

export const RESTLI_EXCEPTION_CLASS = 'com.linkedin.restli.server.RestLiServiceException';

/** HTTP status of each domain error code on the Rest.li endpoints (the ecosystem's mapping). */
export const RESTLI_STATUS: Readonly<Record<ErrorCode, number>> = {
  VALIDATION: 400,
  SCHEMA_VALIDATION: 422,
  NOT_FOUND: 404,
  CONFLICT: 412,
  PAYLOAD_TOO_LARGE: 413,
  PRECONDITION: 412,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  UNAVAILABLE: 503,
  THROTTLED: 429,
};

export function sendRestliError(res: Response, status: number, message: string): void {
  res.status(status).json({
    exceptionClass: RESTLI_EXCEPTION_CLASS,
    stackTrace: `${RESTLI_EXCEPTION_CLASS} [HTTP Status:${status}]: ${message}`,
    message,
    status,
  });
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
  limit?: number;
}

/**
 * The one mapper from errors to Rest.li-style bodies. Domain errors keep their message; an outage (an
 * UnavailableError, or a client error of a dependency that cannot be reached) is a 503 with Retry-After
 * and a message naming what is down; body-parser errors become 400/413/415; other errors that carry a
 * 4xx status (express's URI decoding) keep it; anything else is a 500 with an opaque message and a
 * correlation id.
 */
export function restliErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) return;
    const outage = outageOf(error);
    if (outage !== undefined) {
      logger.warn({ err: error, method: req.method, path: req.path }, outage.message);
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendRestliError(res, 503, outage.message);
      return;
    }
    if (isDomainError(error)) {
      if (error.code === 'THROTTLED') res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendRestliError(res, RESTLI_STATUS[error.code], error.message);
      return;
    }
    const parserError = error as BodyParserError;
    switch (parserError.type) {
      case 'entity.parse.failed':
        sendRestliError(res, 400, `Malformed JSON body: ${parserError.message ?? 'parse error'}`);
        return;
      case 'entity.too.large':
        sendRestliError(
          res,
          413,
          `Request body is larger than the limit of ${parserError.limit ?? '?'} bytes`,
        );
        return;
      case 'encoding.unsupported':
      case 'charset.unsupported':
        sendRestliError(res, 415, parserError.message ?? 'Unsupported body encoding');
        return;
      case 'request.aborted':
        return;
    }
    // Errors that carry a client status keep it: a path with malformed percent-encoding is a 400.
    if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      const reason =
        error instanceof URIError ? `Malformed percent-encoding in ${req.path}` : parserError.message;
      sendRestliError(res, parserError.status, reason ?? 'Bad request');
      return;
    }
    const correlationId = randomUUID();
    logger.error({ err: error, correlationId, method: req.method, path: req.path }, 'unexpected error');
    sendRestliError(res, 500, `Internal error; correlation id ${correlationId}`);
  };
}
