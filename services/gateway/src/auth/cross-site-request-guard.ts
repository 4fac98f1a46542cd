import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { requestContextOf } from './request-context.js';

/** Methods that change nothing: a browser may send them cross-site, and no route writes on them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Content types a page of another site can send without a CORS preflight (a form post or a "simple"
 * fetch); any other type makes the browser ask first, which CORS_ALLOWED_ORIGINS then decides.
 */
const SIMPLE_CONTENT_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

/**
 * Refuses cross-site request forgery for requests that rely on the login cookie, the one credential a
 * browser attaches to requests other sites make. A write (any method but GET, HEAD, OPTIONS) whose
 * credential is the cookie answers 403, naming why, when
 * - its `Origin` is neither this server's host nor one of CORS_ALLOWED_ORIGINS (or, without an `Origin`,
 *   `Sec-Fetch-Site` says cross-site), or
 * - its body's content type is one a page of any site could send without a preflight (text/plain,
 *   form, multipart), or a POST has none: it must be JSON (`Content-Type: application/json`), as the
 *   ecosystem's web app, GraphiQL and Swagger UI send it.
 * Requests with `Authorization` (Bearer, Basic: the SDK, the CLI, services) are not looked at: a page
 * of another site cannot set that header without a preflight.
 */
export function crossSiteRequestGuard(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || requestContextOf(res).viaSessionCookie !== true) {
      next();
      return;
    }
    const refusal = originRefusal(req, allowed) ?? contentTypeRefusal(req);
    if (refusal === undefined) {
      next();
      return;
    }
    res.status(403).json({ status: 403, error: 'Forbidden', message: refusal, path: req.path });
  };
}

function originRefusal(req: Request, allowed: ReadonlySet<string>): string | undefined {
  const origin = req.get('origin');
  if (origin === undefined) {
    return req.get('sec-fetch-site') === 'cross-site'
      ? 'A cross-site request authenticated by the session cookie is refused.'
      : undefined;
  }
  if (allowed.has(origin) || isOwnHost(req, origin)) return undefined;
  return `A request authenticated by the session cookie from origin ${origin} is refused: only this server's origin and CORS_ALLOWED_ORIGINS may send one.`;
}

function contentTypeRefusal(req: Request): string | undefined {
  const header = req.get('content-type');
  const type = header?.split(';')[0]?.trim().toLowerCase();
  // PUT, PATCH and DELETE are preflighted whatever they carry; a POST without a body type is not.
  const simple = type === undefined || type === '' ? req.method === 'POST' : SIMPLE_CONTENT_TYPES.has(type);
  if (!simple) return undefined;
  const sent = header === undefined || header.trim() === '' ? 'none' : header;
  return `A write authenticated by the session cookie must be sent as JSON (Content-Type: application/json); the content type ${sent} is one any other site can send.`;
}

/**
 * Whether the page was served by this server: its host (and port) is the one the request was sent to
 * (`Host`, or `X-Forwarded-Host` from TRUSTED_PROXIES). The scheme is not compared: behind a TLS proxy
 * not listed in TRUSTED_PROXIES the request arrives as http while the page's origin is https, and a
 * page on the same host and port cannot be another site's.
 */
function isOwnHost(req: Request, origin: string): boolean {
  try {
    return new URL(origin).host === req.host;
  } catch {
    return false; // `null` (a sandboxed frame, a file) or garbage: never this server
  }
}
