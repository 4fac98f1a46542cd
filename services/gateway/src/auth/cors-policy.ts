import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin access for the origins in CORS_ALLOWED_ORIGINS only, once for the whole app (GraphQL's
 * own CORS is off). An allowed origin is echoed with `Access-Control-Allow-Credentials: true` and its
 * preflight answered 204 with the methods and the headers it asked for; any other origin gets no CORS
 * header, so its page cannot read an answer or send a preflighted request. With no origin configured
 * (the default) nothing is added. Mount before authentication: a preflight carries no credentials.
 */
export function corsPolicy(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const withHeaders = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: ['Retry-After', 'X-Request-Id', 'traceparent'],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (allowed.size === 0) {
      next();
      return;
    }
    // The answer differs by Origin whenever any is allowed: caches must keep them apart.
    res.vary('Origin');
    withHeaders(req, res, next);
  };
}
