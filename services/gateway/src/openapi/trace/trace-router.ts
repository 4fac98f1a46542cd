import { Router, type Request, type Response } from 'express';
import type { Logger } from '@catalog/runtime';
import type { WriteTraces } from '../../application/write-traces.js';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import { requestContextOf } from '../../auth/request-context.js';
import { jsonBodyParser } from '../../http/json-body.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { TRACE_WRITE_OPERATION } from './trace-operations.js';

export interface TraceApiDeps {
  /** The write trace (it decides who may read which urn). */
  readonly traces: WriteTraces;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}

/** The router mounted at /openapi/v1/trace: `POST /write/{traceId}` with `{urn: [aspectName, ...]}`. */
export function traceApiRouter(deps: TraceApiDeps): Router {
  const router = Router();
  const json = jsonBodyParser({ limit: deps.maxBodyBytes });
  router.post('/write/:traceId', json, async (req: Request, res: Response) => {
    const input = requestValidator.input(TRACE_WRITE_OPERATION, req);
    const answer = await deps.traces.trace(requestContextOf(res), {
      traceId: String(req.params['traceId']),
      aspects: input.body,
      onlyIncludeErrors: input.query['onlyIncludeErrors'] === true,
      detailed: input.query['detailed'] === true,
    });
    res.json(answer);
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}
