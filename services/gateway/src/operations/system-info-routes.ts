import { Router } from 'express';
import type { Logger } from '@catalog/runtime';
import type { SystemInfo } from '../application/system-info.js';
import { requestContextOf } from '../auth/request-context.js';
import { openApiErrorHandler } from '../openapi/openapi-errors.js';

/**
 * `/openapi/v1/system-info` (`{springComponents}`), `/spring-components`, `/properties` and
 * `/properties/simple`, as the ecosystem's SystemInfoController answers them.
 */
export function systemInfoRouter(info: SystemInfo, logger: Logger): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json({ springComponents: await info.components(requestContextOf(res)) });
  });
  router.get('/spring-components', async (_req, res) => {
    res.json(await info.components(requestContextOf(res)));
  });
  router.get('/properties', async (_req, res) => {
    res.json(await info.properties(requestContextOf(res)));
  });
  router.get('/properties/simple', async (_req, res) => {
    res.json(await info.simpleProperties(requestContextOf(res)));
  });
  router.use(openApiErrorHandler(logger));
  return router;
}
