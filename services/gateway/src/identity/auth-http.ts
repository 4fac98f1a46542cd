import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '@catalog/runtime';
import type { Sessions } from '../application/sessions.js';
import { parseJsonObject } from './login-forms.js';

export interface AuthRouterDeps {
  /** Logging in and out, and the native users' use cases (`sessions.users`). */
  readonly sessions: Sessions;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}

/** The exact content type the ecosystem's auth controller answers with. */
export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

export function sendJson(res: Response, status: number, body: unknown): void {
  // Set directly: res.json would rewrite the header as "application/json; charset=utf-8".
  res.status(status);
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.end(JSON.stringify(body));
}

/** The body as text whatever its content type, so these routes decide themselves what bad JSON gets. */
export function rawBody(maxBodyBytes: number): RequestHandler {
  return express.text({ type: () => true, limit: maxBodyBytes });
}

/** The body as a JSON object (undefined when it is not one), also when a parser before us read it. */
export function bodyObjectOf(req: Request): Readonly<Record<string, unknown>> | undefined {
  const body: unknown = req.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) {
    return body as Record<string, unknown>;
  }
  return parseJsonObject(body);
}

/** Body parser failures (too large, bad charset) with their status and, as the ecosystem, no body. */
export const bodyErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const status = (error as { status?: unknown } | null)?.status;
  if (res.headersSent || typeof status !== 'number' || status < 400 || status >= 500) {
    next(error);
    return;
  }
  res.status(status).end();
};

type AsyncHandler = (req: Request, res: Response) => Promise<void>;

/** Runs a handler; an unexpected failure is logged and answered by `onError` (each router's own shape). */
export function guarded(
  logger: Logger,
  what: string,
  handler: AsyncHandler,
  onError: (res: Response) => void,
): RequestHandler {
  return (req, res) => {
    handler(req, res).catch((error: unknown) => {
      logger.error({ err: error, path: req.path }, `${what} failed`);
      if (!res.headersSent) onError(res);
    });
  };
}
