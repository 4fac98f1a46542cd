import { randomUUID } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { isDomainError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { OpenLineageIngest } from '../../application/openlineage-ingest.js';
import { requestContextOf } from '../../auth/request-context.js';
import { outageOf, RETRY_AFTER_SECONDS } from '../../outage.js';
import { OpenLineageEventValidator, type EventProblem } from './event-validation.js';

/** Where the receiver is mounted, as the ecosystem serves it. */
export const OPENLINEAGE_BASE_PATH = '/openapi/openlineage';

/** The body of every error of the receiver (the ecosystem's OpenLineageErrorResponse). */
export interface OpenLineageErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export function sendOpenLineageError(res: Response, status: number, body: OpenLineageErrorBody): void {
  if (!res.headersSent) res.status(status).json(body);
}

/** The receiver's answer to a request without valid credentials. */
export function sendOpenLineageUnauthenticated(res: Response): void {
  sendOpenLineageError(res, 401, {
    code: 'AUTHENTICATION_REQUIRED',
    message: 'Authentication required',
    details: {},
  });
}

const invalid = (res: Response, errors: readonly EventProblem[]) =>
  sendOpenLineageError(res, 400, {
    code: 'INVALID_EVENT',
    message: 'Invalid OpenLineage event',
    details: { errors },
  });

/**
 * `POST /openapi/openlineage/api/v1/lineage`: an OpenLineage RunEvent, JobEvent or DatasetEvent, in
 * `application/json` (415 otherwise), checked against the specification (400 INVALID_EVENT listing
 * what is wrong), mapped and written as proposals by OpenLineageIngest (403 AUTHORIZATION_DENIED when
 * the actor may not write them), answered 202 once the proposals are on the log.
 */
export function openLineageRouter(deps: {
  readonly ingest: OpenLineageIngest;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}): Router {
  const router = Router();
  const validator = new OpenLineageEventValidator();
  const text = express.text({ type: () => true, limit: deps.maxBodyBytes });
  const requireJson = (req: Request, res: Response, next: NextFunction) => {
    if (req.get('content-type') !== undefined && req.is('application/json') === 'application/json') {
      next();
      return;
    }
    sendOpenLineageError(res, 415, {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'OpenLineage requests must use application/json',
      details: {},
    });
  };
  router.post('/api/v1/lineage', requireJson, text, async (req: Request, res: Response) => {
    let body: unknown;
    try {
      body = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch (error) {
      invalid(res, [{ path: '/', rule: 'malformedJson', message: (error as Error).message }]);
      return;
    }
    const checked = validator.check(body);
    if (!checked.ok) {
      invalid(res, checked.problems);
      return;
    }
    await deps.ingest.receive(requestContextOf(res), checked.event);
    res.status(202).end();
  });
  router.use(openLineageErrorHandler(deps.logger));
  return router;
}

/**
 * The receiver's error mapper: a write the actor may not make → 403 AUTHORIZATION_DENIED; an event whose
 * mapping fails an aspect's schema → 400 INVALID_EVENT; a body over the limit → 413; an outage → 503
 * INGESTION_FAILED naming it; anything else → 500 INGESTION_FAILED with the cause's class and a
 * correlation id, logged.
 */
function openLineageErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if ((error as { type?: unknown }).type === 'request.aborted') return;
    const outage = outageOf(error);
    if (outage !== undefined) {
      logger.warn({ err: error, path: req.path }, outage.message);
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendOpenLineageError(res, 503, { code: 'INGESTION_FAILED', message: outage.message, details: {} });
      return;
    }
    if ((error as { type?: unknown }).type === 'entity.too.large') {
      sendOpenLineageError(res, 413, {
        code: 'PAYLOAD_TOO_LARGE',
        message: (error as Error).message,
        details: {},
      });
      return;
    }
    // The body reader's own refusals of the request (an unknown charset or encoding, a malformed body):
    // the client's doing, answered with their status, never a 500.
    const { status, expose } = error as { status?: unknown; expose?: unknown };
    if (typeof status === 'number' && status >= 400 && status < 500 && expose === true) {
      if (status === 415)
        sendOpenLineageError(res, 415, {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: (error as Error).message,
          details: {},
        });
      else invalid(res, [{ path: '/', rule: 'body', message: (error as Error).message }]);
      return;
    }
    if (isDomainError(error)) {
      switch (error.code) {
        case 'FORBIDDEN':
          sendOpenLineageError(res, 403, {
            code: 'AUTHORIZATION_DENIED',
            message: error.message,
            details: {},
          });
          return;
        case 'UNAUTHORIZED':
          sendOpenLineageError(res, 401, {
            code: 'AUTHENTICATION_REQUIRED',
            message: error.message,
            details: {},
          });
          return;
        case 'THROTTLED':
          res.set('Retry-After', String(RETRY_AFTER_SECONDS));
          sendOpenLineageError(res, 429, { code: 'THROTTLED', message: error.message, details: {} });
          return;
        case 'VALIDATION':
        case 'SCHEMA_VALIDATION':
        case 'PAYLOAD_TOO_LARGE':
          invalid(res, [{ path: '/', rule: 'mapping', message: error.message }]);
          return;
        default:
          break;
      }
    }
    const correlationId = randomUUID();
    logger.error({ err: error, correlationId, path: req.path }, 'OpenLineage ingestion failed');
    sendOpenLineageError(res, 500, {
      code: 'INGESTION_FAILED',
      message: 'Failed to ingest OpenLineage event',
      details: { exception: (error as Error | undefined)?.name ?? 'Error', correlationId },
    });
  };
}
