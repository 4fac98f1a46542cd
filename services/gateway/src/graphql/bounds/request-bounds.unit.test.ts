import type { Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import { ActorEntityLoader, type ReadPacing } from '../../application/actor-entity-loader.js';
import type { GraphQLServices } from '../context.js';
import { createGraphQLServer } from '../graphql-endpoint.js';
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLLimits } from './graphql-limits.js';

/** A store whose reads take `delayMs`, counting the reads that finished. */
function slowStore(delayMs: number) {
  const store = {
    finished: 0,
    getLatestMany: async (urns: readonly string[]) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      store.finished++;
      return new Map(urns.map((urn) => [urn, []]));
    },
  };
  return store;
}

const logger = pino({ level: 'silent' });

/** GraphQL's services over a store, every entity readable (the bounds, not the read policy, are tested). */
function servicesOver(store: ReturnType<typeof slowStore>): GraphQLServices {
  const everyone = { readable: async (_ctx: RequestContext, urns: readonly string[]) => [...urns] };
  const app = {
    entityLoader: (ctx: RequestContext, pacing?: ReadPacing) =>
      new ActorEntityLoader(store as unknown as AspectStore, everyone, ctx, pacing),
  };
  return { app, logger } as unknown as GraphQLServices;
}

/** What the authentication middleware leaves on the response before GraphQL runs. */
const serverContext = {
  req: {} as Request,
  res: {
    locals: { requestContext: { authentication: { actorUrn: 'urn:li:corpuser:datahub' }, origin: {} } },
  } as unknown as Response,
};

async function post(services: GraphQLServices, limits: Partial<GraphQLLimits>, query: string) {
  const yoga = createGraphQLServer(services, { ...DEFAULT_GRAPHQL_LIMITS, ...limits });
  const started = performance.now();
  const res = await yoga.fetch(
    'http://catalog/api/graphql',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) },
    serverContext,
  );
  const body = (await res.json()) as { errors?: { message: string; extensions?: unknown }[] };
  return { ...body, elapsedMs: performance.now() - started };
}

describe('the bounds of a running request', () => {
  it('a query past its time budget is aborted', async () => {
    const store = slowStore(1_000);
    const services = servicesOver(store);
    const body = await post(services, { timeoutMs: 100 }, '{ a: entity(urn: "urn:li:corpuser:a") { urn } }');
    // Answered when the budget ran out, not when the read it was waiting on finished.
    expect(body.elapsedMs).toBeLessThan(900);
    expect(body.errors?.[0]?.message).toBe(
      'The request ran past its time budget of 100 ms (GRAPHQL_TIMEOUT_MS) and was aborted; ' +
        'ask for fewer results or split the query',
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 400, type: 'BAD_REQUEST' });
  });

  it('does not touch a query that finishes within it', async () => {
    const services = servicesOver(slowStore(10));
    const body = await post(services, { timeoutMs: 5_000 }, '{ entityExists(urn: "urn:li:corpuser:a") }');
    expect(body.errors).toBeUndefined();
  });

  it('refuses a response over its size limit, naming it, instead of sending it', async () => {
    const services = servicesOver(slowStore(0));
    // The schema's type names: some kilobytes.
    const body = await post(services, { maxResponseBytes: 1_024 }, '{ __schema { types { name } } }');
    expect(body.errors?.[0]?.message).toBe(
      'The response is larger than the limit of 1,024 bytes (GRAPHQL_MAX_RESPONSE_BYTES) and was not sent; ' +
        'ask for fewer results or fewer fields',
    );
  });

  it('refuses a request reading more entities than its ceiling, naming it', async () => {
    const services = servicesOver(slowStore(0));
    const body = await post(
      services,
      { maxEntities: 2 },
      '{ entities(urns: ["urn:li:corpuser:a", "urn:li:corpuser:b", "urn:li:corpuser:c"]) { urn } }',
    );
    expect(body.errors?.[0]?.message).toContain(
      'The request reads more than 2 entities, the limit per request (GRAPHQL_MAX_ENTITIES)',
    );
  });
});
