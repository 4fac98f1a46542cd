import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { isDomainError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { outageOf, RETRY_AFTER_SECONDS } from '../outage.js';

/** The body of an OpenAPI error, as the ecosystem's GlobalControllerExceptionHandler writes it. */
export interface OpenApiErrorBody {
  readonly error: string;
  readonly message?: string;
}

export function sendOpenApiError(res: Response, status: number, body: OpenApiErrorBody): void {
  if (!res.headersSent) res.status(status).json(body);
}

/**
 * Maps errors of the OpenAPI routes: an invalid urn → 400 `Invalid urn!: <urn>`; a value that fails its
 * schema, or a CREATE of an existing aspect → 400 `Validation Error`; unparseable JSON → 400
 * `Invalid JSON format`; other client mistakes → 400 with
 * their message; an outage → 503 naming it; anything else → 500, logged with a correlation id.
 */
export function openApiErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // The client closed the connection while sending its body: there is nobody to answer, and the
    // request's own log line says it was aborted.
    if ((error as { type?: unknown }).type === 'request.aborted') return;
    const status = (error as { status?: unknown }).status;
    const outage = outageOf(error);
    if (outage !== undefined) {
      logger.warn({ err: error, method: req.method, path: req.path }, outage.message);
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendOpenApiError(res, 503, { error: outage.message });
      return;
    }
    if (error instanceof SyntaxError || (error as { type?: unknown }).type === 'entity.parse.failed') {
      sendOpenApiError(res, 400, { error: 'Invalid JSON format', message: (error as Error).message });
      return;
    }
    if (isDomainError(error)) {
      switch (error.code) {
        case 'SCHEMA_VALIDATION':
        case 'CONFLICT':
          sendOpenApiError(res, 400, { error: 'Validation Error', message: error.message });
          return;
        case 'NOT_FOUND':
          res.status(404).set('Not-Found-Reason', 'ENTITY').end();
          return;
        case 'PRECONDITION':
          sendOpenApiError(res, 412, { error: 'Precondition Error', message: error.message });
          return;
        case 'PAYLOAD_TOO_LARGE':
          sendOpenApiError(res, 413, { error: error.message });
          return;
        case 'UNAUTHORIZED':
          sendOpenApiError(res, 401, { error: error.message });
          return;
        case 'FORBIDDEN':
          sendOpenApiError(res, 403, { error: error.message });
          return;
        case 'THROTTLED':
          res.set('Retry-After', String(RETRY_AFTER_SECONDS));
          sendOpenApiError(res, 429, { error: error.message });
          return;
        default:
          sendOpenApiError(res, 400, { error: error.message });
          return;
      }
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendOpenApiError(res, status, { error: (error as Error).message });
      return;
    }
    const correlationId = randomUUID();
    logger.error({ err: error, correlationId, method: req.method, path: req.path }, 'OpenAPI request failed');
    sendOpenApiError(res, 500, {
      error: 'Internal server error occurred',
      message: `correlation id ${correlationId}`,
    });
  };
}
