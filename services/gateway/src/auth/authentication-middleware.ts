import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authentication } from '@catalog/auth';
import type { Logger } from '@catalog/runtime';
import type { GatewayAuth } from './gateway-auth.js';
import { setRequestContext } from './request-context.js';
import { requestOriginOf } from './request-origin.js';
import { unlessUnavailable } from './auth-unavailable.js';
import { isWebAppPublicPath } from '../web/web-app.js';

/** The ecosystem's text for a request without valid credentials. */
export const UNAUTHENTICATED_MESSAGE = 'Unauthorized to perform this action.';

/** The cookie a login sets: its value is the session token. */
export const SESSION_COOKIE = 'PLAY_SESSION';

/**
 * Paths served without credentials: the ecosystem's excluded paths (health, config, schema registry,
 * metrics), the login routes, the documentation pages and the web app's pages and files, which hold no
 * metadata (the calls they make are authenticated like any other: the login cookie or a header).
 */
const PUBLIC_EXACT = new Set([
  '/health',
  '/health/live',
  '/health/ready',
  '/health/detailed',
  '/admin',
  '/config',
  '/config/search/export',
  '/actuator/prometheus',
  '/openapi/operations/dev/featureFlags',
  '/logIn',
  '/login',
  '/signUp',
  '/resetNativeUserCredentials',
  '/logOut',
  '/authenticate',
  '/api/graphiql',
  '/restli/docs',
  '/openapi/v3/api-docs',
  '/openapi/v3/api-docs.yaml',
]);
const PUBLIC_PREFIXES = [
  '/schema-registry/',
  '/public-iceberg/',
  '/openapi/operations/dev/featureFlags/',
  '/openapi/swagger-ui',
];

export function isPublicPath(path: string): boolean {
  if (PUBLIC_EXACT.has(path) || isWebAppPublicPath(path)) return true;
  return PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** A request on a public path without credentials acts as nobody in particular. */
const ANONYMOUS: Authentication = {
  actorUrn: 'urn:li:corpuser:UNKNOWN',
  actorId: 'UNKNOWN',
  method: 'guest',
  isSystem: false,
};

/**
 * An interface whose 401 has its own body (the OpenLineage receiver's error shape): requests under
 * `pathPrefix` without valid credentials are answered by `send`.
 */
export interface UnauthenticatedAnswer {
  readonly pathPrefix: string;
  readonly send: (res: Response) => void;
}

/**
 * Establishes who a request acts as, once, before any route: the authentication chain over the
 * `Authorization` header, the login cookie and (auth off) `X-DataHub-Actor`. Without valid credentials
 * a protected path answers 401 with the ecosystem's text (GraphQL too: HTTP 401, not a GraphQL error),
 * or the body of its interface's own answer; a public path goes on anonymously. Why a credential was
 * refused is logged at debug, never the credential.
 */
export function authenticationMiddleware(
  auth: GatewayAuth,
  logger: Logger,
  answers: readonly UnauthenticatedAnswer[] = [],
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = requestOriginOf(req);
    const isPublic = isPublicPath(req.path);
    const authorization = req.get('authorization');
    const sessionToken = cookieValue(req.get('cookie'), SESSION_COOKIE);
    const actorHeader = req.get('x-datahub-actor');
    if (isPublic && authorization === undefined && sessionToken === undefined) {
      setRequestContext(res, { authentication: ANONYMOUS, origin });
      next();
      return;
    }
    unlessUnavailable('The request could not be authenticated', () =>
      auth.chain.authenticate({
        ...(authorization === undefined ? {} : { authorization }),
        ...(sessionToken === undefined ? {} : { sessionToken }),
        ...(actorHeader === undefined ? {} : { actorHeader }),
      }),
    )
      .then((outcome) => {
        if (outcome.ok) {
          // The chain reads the header first; the cookie is the credential only without one.
          const viaSessionCookie =
            authorization === undefined && outcome.authentication.method === 'session-token';
          setRequestContext(res, {
            authentication: outcome.authentication,
            origin,
            ...(viaSessionCookie ? { viaSessionCookie } : {}),
          });
          next();
          return;
        }
        logger.debug({ path: req.path, reason: outcome.reason }, 'request not authenticated');
        if (isPublic) {
          setRequestContext(res, { authentication: ANONYMOUS, origin });
          next();
          return;
        }
        const answer = answers.find((a) => req.path.startsWith(a.pathPrefix));
        if (answer !== undefined) {
          answer.send(res);
          return;
        }
        res.status(401).json({
          status: 401,
          error: 'Unauthorized',
          message: UNAUTHENTICATED_MESSAGE,
          path: req.path,
        });
      })
      .catch(next);
  };
}

/** One cookie's value from a `Cookie` header (no decoding: a JWT needs none). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
