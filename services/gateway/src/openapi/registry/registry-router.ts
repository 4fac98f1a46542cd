import { Router, type Request, type Response } from 'express';
import type { Logger } from '@catalog/runtime';
import type { RegistryModels } from '../../application/registry-models.js';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import { requestContextOf } from '../../auth/request-context.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { REGISTRY_OPERATIONS } from './registry-operations.js';

/** The router mounted at /openapi/v1/registry/models: the entity registry's specifications. */
export function registryModelsRouter(deps: {
  readonly models: RegistryModels;
  readonly logger: Logger;
}): Router {
  const router = Router();
  const { models } = deps;
  const paged = (req: Request, operation: (typeof REGISTRY_OPERATIONS)['entitySpecs']) => {
    const query = requestValidator.input(operation, req).query;
    return { start: query['start'] as number, count: query['count'] as number };
  };
  router.get('/entity/specifications', async (req: Request, res: Response) => {
    const { start, count } = paged(req, REGISTRY_OPERATIONS.entitySpecs);
    res.json(await models.entitySpecs(requestContextOf(res), start, count));
  });
  router.get('/entity/specifications/:entityName', async (req: Request, res: Response) => {
    res.json(await models.entitySpec(requestContextOf(res), String(req.params['entityName'])));
  });
  router.get('/entity/specifications/:entityName/aspects', async (req: Request, res: Response) => {
    res.json(await models.entityAspectSpecs(requestContextOf(res), String(req.params['entityName'])));
  });
  router.get('/aspect/specifications', async (req: Request, res: Response) => {
    const { start, count } = paged(req, REGISTRY_OPERATIONS.aspectSpecs);
    res.json(await models.aspectSpecs(requestContextOf(res), start, count));
  });
  router.get('/aspect/specifications/:aspectName', async (req: Request, res: Response) => {
    res.json(await models.aspectSpec(requestContextOf(res), String(req.params['aspectName'])));
  });
  router.get('/event/specifications', async (req: Request, res: Response) => {
    const { start, count } = paged(req, REGISTRY_OPERATIONS.eventSpecs);
    res.json(await models.eventSpecs(requestContextOf(res), start, count));
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}
