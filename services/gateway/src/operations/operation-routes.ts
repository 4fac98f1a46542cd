import type { Express } from 'express';
import type { PipelineOperations } from '../application/pipeline-operations.js';
import { requestContextOf } from '../auth/request-context.js';

function queryString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The operations endpoints over the pipeline (`/openapi/operations/...`). */
export function mountOperationRoutes(app: Express, operations: PipelineOperations): void {
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
