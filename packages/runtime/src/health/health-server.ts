import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Readiness } from './readiness.js';

/**
 * Answers a readiness probe: 200 with the report while every check passes, else 503 naming what is
 * unavailable. Works on express responses too (they are node's).
 */
export async function sendReadiness(readiness: Readiness, res: ServerResponse): Promise<void> {
  const report = await readiness.report();
  sendJson(res, report.status === 'UP' ? 200 : 503, report);
}

/** Answers a liveness probe: the process is up and its event loop turns. */
export function sendLiveness(res: ServerResponse): void {
  sendJson(res, 200, { status: 'UP' });
}

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The health endpoints of a service without an HTTP interface of its own (the consumers): GET
 * `/health` and `/health/live` (200 while the process runs), `/health/ready` (see sendReadiness), and
 * `/stats` (counters of the work done since start, as JSON) when the service gives them.
 */
export function startHealthServer(options: {
  readonly port: number;
  readonly host?: string;
  readonly readiness: Readiness;
  readonly logger: Logger;
  readonly stats?: () => unknown;
}): Promise<HealthServer> {
  const server = createServer((req, res) => {
    handle(req, res, options.readiness, options.stats).catch((error: unknown) => {
      options.logger.error({ err: error }, 'health request failed');
      if (!res.headersSent) sendJson(res, 500, { status: 'DOWN' });
      else res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  readiness: Readiness,
  stats: (() => unknown) | undefined,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'GET only' });
  if (path === '/health' || path === '/health/live') return sendLiveness(res);
  if (path === '/health/ready') return sendReadiness(readiness, res);
  if (path === '/stats' && stats !== undefined) return sendJson(res, 200, stats());
  sendJson(res, 404, { error: `No resource at ${path}` });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(res.req?.method === 'HEAD' ? undefined : text);
}
