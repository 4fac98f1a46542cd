import { Router, type Request, type Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { EntityTimeline } from '../../application/entity-timeline.js';
import type { Operation } from '../../api-contract/operation.js';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import { requestContextOf } from '../../auth/request-context.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { parseChangeCategory } from './change-categories.js';

export interface TimelineApiDeps {
  /** The timeline use case (it decides who may read which entity's history). */
  readonly timeline: EntityTimeline;
  readonly logger: Logger;
}

/**
 * GET /{urn}?categories=…: an entity's timeline as the ecosystem's list of ChangeTransaction
 * (`timestamp, actor, semVer, semVerChange, changeEvents, versionStamp[, rawDiff]`), oldest first.
 * Mounted at /openapi/v2/timeline/v1 and at the deprecated /openapi/timeline/v1, each with its operation.
 */
export function timelineApiRouter(deps: TimelineApiDeps, operation: Operation): Router {
  const router = Router();
  router.get('/:urn', async (req: Request, res: Response) => {
    const query = requestValidator.input(operation, req).query;
    const startTime = query['startTime'] as number;
    const endTime = query['endTime'] as number;
    if (startTime !== -1 && endTime !== 0 && startTime > endTime)
      throw new ValidationError('startTime must not be after endTime');
    const answer = await deps.timeline.timeline(requestContextOf(res), {
      urn: String(req.params['urn']),
      categories: (query['categories'] as string[]).map(parseChangeCategory),
      startTime,
      endTime,
      raw: query['raw'] === true,
      includeVersionSet: query['includeVersionSet'] === true,
    });
    res.json(answer.transactions);
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}
