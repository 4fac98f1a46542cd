import { randomUUID } from 'node:crypto';
import { gzipWhenAccepted } from '../http/graphql-gzip.js';
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { type Express, type Request, type RequestHandler, type Response } from 'express';
import { jsonBodyParser } from '../http/json-body.js';
import { createSchema, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { GraphQLContext, GraphQLServices } from './context.js';
import { requestContextOf } from '../auth/request-context.js';
import { catalogResolvers, catalogTypeDefs } from './graphql-schema.js';
import { useBooleanStringVariables } from './boolean-string-variables.js';
import { maskError, useRetryAfterOnOutage } from './graphql-errors.js';
import { useStoreCallCount } from './store-call-count.js';
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLLimits } from './bounds/graphql-limits.js';
import { RequestBudget } from './bounds/request-budget.js';
import { useQueryCost } from './bounds/query-cost.js';
import { useResponseSizeLimit } from './bounds/response-size.js';
import { useTimeBudget } from './bounds/time-budget.js';
import {
  acceptsEventStream,
  DEFAULT_EVENT_STREAM_SETTINGS,
  useEventStreams,
  type EventStreamSettings,
} from './subscriptions/event-stream.js';

/** Where the ecosystem's clients post: GMS serves the first, its frontend proxies the second. */
export const GRAPHQL_PATHS = ['/api/graphql', '/api/v2/graphql'] as const;
export const GRAPHIQL_PATH = '/api/graphiql';

export interface GraphQLSettings {
  /** Larger bodies get a 413. */
  readonly maxBodyBytes: number;
  /** What a request may cost and return (bounds/graphql-limits.ts); the defaults when absent. */
  readonly limits?: GraphQLLimits;
  /** How subscriptions' Server-Sent Events are written; the defaults when absent. */
  readonly eventStreams?: EventStreamSettings;
}

/**
 * Query shape limits (graphql-armor): the default depth is deep enough for entity → relationships →
 * entity → lineage. Its cost limit is off: it counts a field once whatever the list size asked for, and
 * bounds/query-cost.ts counts what the query returns instead.
 */
function armor(limits: GraphQLLimits): EnvelopArmor {
  return new EnvelopArmor({
    // Depth counts fields only, as graphql-java's MaxQueryDepthInstrumentation does: a fragment spread or
    // an inline fragment is no level of its own (mcp-server-datahub's entity query spreads fragments 38
    // deep over 20 levels of fields).
    maxDepth: { n: limits.maxDepth, flattenFragments: true },
    costLimit: { enabled: false },
    maxAliases: { n: limits.maxAliases },
    maxTokens: { n: 10_000 },
    maxDirectives: { n: 50 },
    // graphql-js suggests field names on a typo, as the ecosystem's graphql-java does.
    blockFieldSuggestion: { enabled: false },
  });
}

/**
 * A request GraphQL executes must be one a page of another site cannot send without a CORS preflight:
 * a content type other than text/plain, form or multipart (the web app, GraphiQL and the SDK send
 * application/json), or one of these headers, none of which such a page can set: `Authorization`
 * (Bearer and Basic clients), `X-DataHub-Actor` (authentication off) or yoga's `X-GraphQL-Yoga-CSRF`
 * (any value; for a client that sends neither). Otherwise 403. Requests authenticated by the login
 * cookie are held to more before they get here (crossSiteRequestGuard: JSON, and an allowed origin).
 */
export const CSRF_REQUEST_HEADERS = ['authorization', 'x-datahub-actor', 'x-graphql-yoga-csrf'];

/**
 * yoga's CSRF prevention for every request but the GET of an event stream, which a browser's
 * EventSource sends with the cookie and no header of its own: such a GET reaches yoga only for a
 * subscription (useEventStreams refuses anything else on GET), changes nothing, and cannot be read by
 * another site's page (CORS); a cross-site one is refused before it opens a stream (mountGraphQL).
 */
function csrfPrevention(): Plugin {
  const plugin = useCSRFPrevention({ requestHeaders: CSRF_REQUEST_HEADERS });
  return {
    onRequestParse: (payload) =>
      payload.request.method === 'GET' ? undefined : plugin.onRequestParse?.(payload),
  };
}

/** What express hands the server with each request. */
type ServerContext = { req: Request; res: Response };

export function createGraphQLServer(
  services: GraphQLServices,
  limits: GraphQLLimits = DEFAULT_GRAPHQL_LIMITS,
  eventStreams: EventStreamSettings = DEFAULT_EVENT_STREAM_SETTINGS,
): YogaServerInstance<ServerContext, GraphQLContext> {
  const schema = createSchema<ServerContext & GraphQLContext>({
    typeDefs: catalogTypeDefs(),
    resolvers: catalogResolvers(),
  });
  const { logger } = services;
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATHS[0],
    graphiql: false,
    landingPage: false,
    // The app answers CORS once for every route (CORS_ALLOWED_ORIGINS); yoga's default would echo any
    // origin with credentials allowed.
    cors: false,
    maskedErrors: { maskError: maskError(logger) },
    plugins: [
      csrfPrevention(),
      ...armor(limits).protect().plugins,
      // Before useBooleanStringVariables: it costs the variables as that plugin leaves them.
      useQueryCost(limits.maxCost),
      useBooleanStringVariables(),
      useTimeBudget(),
      useResponseSizeLimit(limits.maxResponseBytes),
      useStoreCallCount(),
      useRetryAfterOnOutage(),
      useEventStreams(eventStreams),
    ],
    logging: {
      debug: (...args) => logger.debug({ args }, 'graphql'),
      info: (...args) => logger.info({ args }, 'graphql'),
      warn: (...args) => logger.warn({ args }, 'graphql'),
      // Resolver failures are logged once, with a correlation id, by maskError; what yoga reports here
      // are the errors a response carries (denials, bad input), which are the caller's, not ours.
      error: (...args) => logger.debug({ args }, 'graphql'),
    },
    context: ({ res, request }) => {
      const auth = requestContextOf(res);
      const budget = new RequestBudget(limits, request.signal);
      return {
        services,
        auth,
        actor: auth.authentication.actorUrn,
        requestId: auth.origin.requestId ?? randomUUID(),
        entities: services.app.entityLoader(auth, budget),
        budget,
      };
    },
  });
}

/**
 * Mounts GraphQL on both paths (POST; GET only for a subscription asked as Server-Sent Events, as
 * EventSource sends it; any other GET answers 405 with a message, as the ecosystem's controller does)
 * and the GraphiQL explorer, whose assets are bundled in the page: it works offline.
 */
export function mountGraphQL(app: Express, services: GraphQLServices, settings: GraphQLSettings): void {
  const yoga = createGraphQLServer(services, settings.limits, settings.eventStreams);
  const json = jsonBodyParser({ limit: settings.maxBodyBytes });
  app.get(GRAPHIQL_PATH, async (_req, res) => {
    // Imported when first asked for: the module holds the explorer's whole bundle (9 MB of source),
    // which every catalog process would otherwise keep on its heap from the start.
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    res.type('html').send(renderGraphiQL({ endpoint: GRAPHQL_PATHS[0], title: 'Metadata catalog GraphQL' }));
  });
  for (const path of GRAPHQL_PATHS) {
    // The front end's path answers as the ecosystem's front end does: gzipped when the client accepts it
    // (never an event stream: gzip would hold every event until the stream ends).
    const gzip = gzipWhenAccepted();
    const encoding: RequestHandler[] =
      path === GRAPHQL_PATHS[1]
        ? [(req, res, next) => (acceptsEventStream(req.get('accept')) ? next() : gzip(req, res, next))]
        : [];
    app.get(path, (req, res, next) => {
      if (!acceptsEventStream(req.get('accept'))) {
        next();
        return;
      }
      if (requestContextOf(res).viaSessionCookie === true && req.get('sec-fetch-site') === 'cross-site') {
        res
          .status(403)
          .json({ message: 'A cross-site event stream authenticated by the session cookie is refused.' });
        return;
      }
      req.url = req.originalUrl = req.originalUrl.replace(path, GRAPHQL_PATHS[0]);
      return yoga.handle(req, res);
    });
    app.post(path, json, ...encoding, (req, res) => {
      const body: unknown = req.body;
      if (
        typeof body !== 'object' ||
        body === null ||
        typeof (body as { query?: unknown }).query !== 'string'
      ) {
        res.status(400).json({ message: 'The body must be a JSON object with a "query" string' });
        return;
      }
      // The server answers one endpoint path; the second is the same endpoint under another name.
      req.url = req.originalUrl = req.originalUrl.replace(path, GRAPHQL_PATHS[0]);
      return yoga.handle(req, res);
    });
    app.all(path, (req, res) => {
      res
        .status(405)
        .set('Allow', 'POST')
        .json({ message: `GraphQL takes POST only, not ${req.method}` });
    });
  }
}
