import { randomUUID } from 'node:crypto';
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import express, { type Express, type Request, type Response } from 'express';
import { createSchema, createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { GraphQLContext, GraphQLServices } from './context.js';
import { requestContextOf } from '../auth/request-context.js';
import { guardMutations } from './mutation-privileges.js';
import { catalogResolvers, catalogTypeDefs } from './graphql-schema.js';
import { useBooleanStringVariables } from './boolean-string-variables.js';
import { maskError, useRetryAfterOnOutage } from './graphql-errors.js';
import { useStoreCallCount } from './store-call-count.js';

/** Where the ecosystem's clients post: GMS serves the first, its frontend proxies the second. */
export const GRAPHQL_PATHS = ['/api/graphql', '/api/v2/graphql'] as const;
export const GRAPHIQL_PATH = '/api/graphiql';

export interface GraphQLSettings {
  /** Larger bodies get a 413. */
  readonly maxBodyBytes: number;
}

/** Query shape limits (graphql-armor): deep enough for entity → relationships → entity → lineage. */
const ARMOR = new EnvelopArmor({
  maxDepth: { n: 12 },
  costLimit: { maxCost: 50_000 },
  maxAliases: { n: 30 },
  maxTokens: { n: 10_000 },
  maxDirectives: { n: 50 },
  // graphql-js suggests field names on a typo, as the ecosystem's graphql-java does.
  blockFieldSuggestion: { enabled: false },
});

/** What express hands the server with each request. */
type ServerContext = { req: Request; res: Response };

export function createGraphQLServer(
  services: GraphQLServices,
): YogaServerInstance<ServerContext, GraphQLContext> {
  const schema = guardMutations(
    createSchema<ServerContext & GraphQLContext>({
      typeDefs: catalogTypeDefs(),
      resolvers: catalogResolvers(),
    }),
  );
  const { logger } = services;
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATHS[0],
    graphiql: false,
    landingPage: false,
    maskedErrors: { maskError: maskError(logger) },
    plugins: [
      ...ARMOR.protect().plugins,
      useBooleanStringVariables(),
      useStoreCallCount(),
      useRetryAfterOnOutage(),
    ],
    logging: {
      debug: (...args) => logger.debug({ args }, 'graphql'),
      info: (...args) => logger.info({ args }, 'graphql'),
      warn: (...args) => logger.warn({ args }, 'graphql'),
      // Resolver failures are logged once, with a correlation id, by maskError; what yoga reports here
      // are the errors a response carries (denials, bad input), which are the caller's, not ours.
      error: (...args) => logger.debug({ args }, 'graphql'),
    },
    context: ({ res }) => {
      const auth = requestContextOf(res);
      return {
        services,
        auth,
        actor: auth.authentication.actorUrn,
        requestId: auth.origin.requestId ?? randomUUID(),
        entities: services.app.entityLoader(auth),
      };
    },
  });
}

/**
 * Mounts GraphQL on both paths (POST only: GET answers 405 with a message, as the ecosystem's
 * controller does) and the GraphiQL explorer, whose assets are bundled in the page: it works offline.
 */
export function mountGraphQL(app: Express, services: GraphQLServices, settings: GraphQLSettings): void {
  const yoga = createGraphQLServer(services);
  const json = express.json({ limit: settings.maxBodyBytes, strict: false, type: () => true });
  app.get(GRAPHIQL_PATH, async (_req, res) => {
    // Imported when first asked for: the module holds the explorer's whole bundle (9 MB of source),
    // which every catalog process would otherwise keep on its heap from the start.
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    res.type('html').send(renderGraphiQL({ endpoint: GRAPHQL_PATHS[0], title: 'Metadata catalog GraphQL' }));
  });
  for (const path of GRAPHQL_PATHS) {
    app.post(path, json, (req, res) => {
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
