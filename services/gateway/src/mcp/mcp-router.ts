import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '@catalog/runtime';
import express, { type Request, type Response, type Router } from 'express';
import type { CatalogApplication } from '../application/catalog-application.js';
import { requestContextOf } from '../auth/request-context.js';
import { jsonBodyParser } from '../http/json-body.js';
import { createMcpServer, type McpSettings } from './mcp-server.js';

export interface McpRouterDeps {
  readonly app: CatalogApplication;
  readonly settings: McpSettings;
  readonly serverVersion: string;
  readonly maxBodyBytes: number;
  readonly logger: Logger;
}

/** JSON-RPC's answer to GET and DELETE: a stateless server has no stream to open and no session to end. */
function methodNotAllowed(_req: Request, res: Response): void {
  res
    .status(405)
    .set('Allow', 'POST')
    .json({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: POST JSON-RPC messages to /mcp' },
      id: null,
    });
}

/**
 * `/mcp`: the Model Context Protocol over streamable HTTP, stateless. Each POST gets its own server and
 * transport, bound to the request's actor (authenticated before it gets here, as every route), and
 * closed with the response; answers are JSON, or an event stream when the client asks only for one.
 */
export function mcpRouter(deps: McpRouterDeps): Router {
  const router = express.Router();
  router.post('/', jsonBodyParser({ limit: deps.maxBodyBytes }), async (req, res) => {
    const server = createMcpServer(
      { app: deps.app, ctx: requestContextOf(res), budgetBytes: deps.settings.resultMaxBytes },
      deps.settings,
      { version: deps.serverVersion },
      deps.logger,
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.get('/', methodNotAllowed);
  router.delete('/', methodNotAllowed);
  return router;
}
