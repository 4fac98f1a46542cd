import type { Express } from 'express';
import { ValidationError } from '@catalog/model';
import type { PipelineOperations } from '../application/pipeline-operations.js';
import type { ApiThrottle } from '../application/api-throttle.js';
import { requestContextOf } from '../auth/request-context.js';

function queryString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `enabled` of the manual throttle switch: `true` or `false` (a 400 otherwise). */
function enabledOf(value: unknown): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ValidationError(`enabled must be true or false, got ${JSON.stringify(value ?? null)}`);
}

/** The operations endpoints over the pipeline (`/openapi/operations/...`). */
export function mountOperationRoutes(
  app: Express,
  operations: PipelineOperations,
  throttle: ApiThrottle,
): void {
  app.get('/openapi/operations/throttle/requests', async (_req, res) => {
    res.json(await throttle.events(requestContextOf(res)));
  });
  app.post('/openapi/operations/throttle/requests/manual', async (req, res) => {
    const ctx = requestContextOf(res);
    res.json(await throttle.setManual(ctx, () => enabledOf(req.query['enabled'])));
  });
  app.get('/openapi/operations/messaging/transport', async (_req, res) => {
    res.json({ transport: await operations.transport(requestContextOf(res)) });
  });
  app.get('/openapi/operations/messaging/:kind/consumer/lag', async (req, res) => {
    const kind = queryString(req.params['kind']) ?? '';
    res.json(await operations.consumerLag(requestContextOf(res), kind, req.query['detailed'] === 'true'));
  });
  app.post('/openapi/operations/dead-letters/replay', async (req, res) => {
    res.json(await operations.replayDeadLetters(requestContextOf(res), queryString(req.query['group'])));
  });
  app.get('/openapi/operations/structuredProperties/cleanup', async (req, res) => {
    res.json(
      await operations.structuredPropertyCleanup(requestContextOf(res), queryString(req.query['urn'])),
    );
  });
}
