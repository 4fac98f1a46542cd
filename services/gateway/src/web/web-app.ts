import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Where `pnpm build` leaves the web app (apps/web/dist), from this file in src/ or dist/ alike. */
export const DEFAULT_WEB_APP_DIR = fileURLToPath(new URL('../../../../apps/web/dist', import.meta.url));

/** Where the built app keeps its content-hashed files (vite's `assetsDir`). */
export const WEB_ASSETS_PREFIX = '/assets/';

/**
 * The app's own pages: each answers the app's index.html, and the app routes in the browser. An explicit
 * list, not a fallback for whatever no route answered, so an API path never gets a page (a mistyped
 * `/entitiesV3` stays the API's 404) and every API route keeps precedence.
 */
const LOGIN_PAGE = '/login';
const APP_PAGES_EXACT = new Set(['/', LOGIN_PAGE, '/search', '/settings']);
const APP_PAGES_PREFIXES = ['/dataset/', '/entity/', '/settings/'];

/** Whether a path is one of the app's pages (served without credentials: they hold no metadata). */
export function isWebAppPage(path: string): boolean {
  return APP_PAGES_EXACT.has(path) || APP_PAGES_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Whether a path is served without credentials for the web app: its pages and its built files. */
export function isWebAppPublicPath(path: string): boolean {
  return isWebAppPage(path) || path.startsWith(WEB_ASSETS_PREFIX) || path === '/favicon.svg';
}

/** Files named with a content hash never change: a year, and the browser need not ask again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Anything else (index.html, the favicon) is asked again each time, so a new build shows at once. */
const REVALIDATE = 'no-cache';

/**
 * What the app's pages may load: only this origin's scripts, styles, fonts and calls (the app fetches
 * nothing from another host, and a description's markup cannot make it), inline style attributes (a
 * tag's colour) and data: images; no framing by another site.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head>
<body><h1>The catalog's web app is not built</h1>
<p>Build it with <code>pnpm build</code> (or only the app: <code>pnpm --filter @catalog/web build</code>), then
reload. The APIs answer as usual: GraphQL at <a href="/api/graphiql">/api/graphiql</a>, OpenAPI at
<a href="/openapi/swagger-ui/index.html">/openapi/swagger-ui</a>.</p></body></html>
`;

/**
 * Serves the built web app from `dir`: its hashed assets with a year's immutable caching, its pages
 * (index.html, `no-cache`) on the app's routes; brotli or gzip files written next to each at build time
 * are sent to a browser that accepts them. Without a build, a page of the app is a 404 saying how to
 * build it, and `/assets/` is a plain 404. Mount before the login routes: `/login` is the app's page.
 */
export function mountWebApp(app: Express, dir: string): void {
  const index = join(dir, 'index.html');
  // express-static-gzip lists the compressed files when made: made once the build is there.
  let serve: RequestHandler | undefined;
  const served = (): RequestHandler | undefined => {
    if (serve === undefined && existsSync(index))
      serve = expressStaticGzip(dir, {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: {
          index: false,
          fallthrough: false,
          dotfiles: 'ignore',
          setHeaders: (res, path) =>
            res.setHeader('Cache-Control', hashedAsset(dir, path) ? IMMUTABLE : REVALIDATE),
        },
      });
    return serve;
  };

  const handler = (page: boolean) => (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const middleware = served();
    if (middleware === undefined) {
      // Without the app, the login routes' own answer at /login (how to log in) stands.
      if (req.path === LOGIN_PAGE) return next();
      res.status(404).setHeader('Cache-Control', REVALIDATE);
      if (page) res.type('html').send(NOT_BUILT_PAGE);
      else res.type('text/plain').send('The web app is not built: run pnpm build.\n');
      return;
    }
    if (page) {
      req.url = '/index.html';
      res.setHeader('Content-Security-Policy', WEB_APP_CSP);
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    middleware(req, res, (error?: unknown) => {
      // Only a file the build does not have reaches here (serve-static without fallthrough).
      if (error !== undefined && !res.headersSent)
        res.status(404).setHeader('Cache-Control', REVALIDATE).type('text/plain').send('Not found\n');
      else if (error !== undefined) next(error);
    });
  };
  app.use(WEB_ASSETS_PREFIX, (req, res, next) => {
    req.url = `${WEB_ASSETS_PREFIX}${req.url.replace(/^\//, '')}`;
    handler(false)(req, res, next);
  });
  app.get('/favicon.svg', handler(false));
  app.use((req, res, next) => (isWebAppPage(req.path) ? handler(true)(req, res, next) : next()));
}

function hashedAsset(dir: string, path: string): boolean {
  return path.startsWith(join(dir, WEB_ASSETS_PREFIX));
}
