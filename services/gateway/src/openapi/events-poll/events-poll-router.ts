import { Router, type Request, type Response } from 'express';
import { isDomainError, ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { EventsPoll, EventsPollRequest } from '../../application/events-poll.js';
import { requestContextOf } from '../../auth/request-context.js';
import { openApiErrorHandler } from '../openapi-errors.js';

export interface EventsPollDeps {
  readonly eventsPoll: EventsPoll;
  readonly logger: Logger;
}

/**
 * `GET /poll` under /openapi/v1/events: the ecosystem's events API. A refusal (a topic that cannot be
 * polled, a missing privilege) is a 403 with an empty body, as the ecosystem answers it; a bad
 * parameter, a 400 naming it.
 */
export function eventsPollRouter(deps: EventsPollDeps): Router {
  const router = Router();
  router.get('/poll', async (req: Request, res: Response) => {
    const topic = single(req, 'topic');
    if (topic === undefined || topic === '') throw new ValidationError('topic is required');
    try {
      const polled = await deps.eventsPoll.poll(requestContextOf(res), topic, () => readRequest(req, topic));
      res.json(polled);
    } catch (error) {
      if (isDomainError(error) && error.code === 'FORBIDDEN') {
        res.status(403).end();
        return;
      }
      throw error;
    }
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}

function readRequest(req: Request, topic: string): EventsPollRequest {
  const offsetId = single(req, 'offsetId');
  const limit = integer(req, 'limit', 1);
  const pollTimeoutSeconds = integer(req, 'pollTimeoutSeconds', 0);
  const lookbackWindowDays = integer(req, 'lookbackWindowDays', 0);
  return {
    topic,
    ...(offsetId === undefined || offsetId === '' ? {} : { offsetId }),
    ...(limit === undefined ? {} : { limit }),
    ...(pollTimeoutSeconds === undefined ? {} : { pollTimeoutSeconds }),
    ...(lookbackWindowDays === undefined ? {} : { lookbackWindowDays }),
  };
}

function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be given once`);
  return value;
}

/** An integer parameter of at least `min`; absent or empty is undefined (the default). */
function integer(req: Request, name: string, min: number): number | undefined {
  const text = single(req, name);
  if (text === undefined || text.trim() === '') return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw new ValidationError(`${name} must be an integer, got "${text}"`);
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < min)
    throw new ValidationError(`${name} must be an integer of at least ${min}, got ${text}`);
  return value;
}
