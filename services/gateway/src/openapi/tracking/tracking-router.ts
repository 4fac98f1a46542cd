import { Router, type Request, type Response } from 'express';
import type { Logger } from '@catalog/runtime';
import type { UsageTracking } from '../../application/usage-tracking.js';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import { requestContextOf } from '../../auth/request-context.js';
import { jsonBodyParser } from '../../http/json-body.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { TRACKING_OPERATION } from './tracking-operations.js';

/** The router mounted at /openapi/v1/tracking: `POST /track` with a usage event. */
export function trackingRouter(deps: {
  readonly tracking: UsageTracking;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}): Router {
  const router = Router();
  const json = jsonBodyParser({ limit: deps.maxBodyBytes });
  router.post('/track', json, async (req: Request, res: Response) => {
    const input = requestValidator.input(TRACKING_OPERATION, req);
    await deps.tracking.track(requestContextOf(res), input.body);
    res.status(200).end();
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}
