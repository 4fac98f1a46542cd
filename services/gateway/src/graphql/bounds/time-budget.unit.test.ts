import type { Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { GraphQLServices } from '../context.js';
import { createGraphQLServer } from '../graphql-endpoint.js';
import { DEFAULT_GRAPHQL_LIMITS } from './graphql-limits.js';

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

/** What the authentication middleware leaves on the response before GraphQL runs. */
const serverContext = {
  req: {} as Request,
  res: {
    locals: { requestContext: { authentication: { actorUrn: 'urn:li:corpuser:datahub' }, origin: {} } },
  } as unknown as Response,
};

async function post(services: GraphQLServices, timeoutMs: number, query: string) {
  const yoga = createGraphQLServer(services, { ...DEFAULT_GRAPHQL_LIMITS, timeoutMs });
  const started = performance.now();
  const res = await yoga.fetch(
    'http://catalog/api/graphql',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) },
    serverContext,
  );
  const body = (await res.json()) as { errors?: { message: string; extensions?: unknown }[] };
  return { ...body, elapsedMs: performance.now() - started };
}

describe('the time budget of a request', () => {
  it('a query past its time budget is aborted', async () => {
    const store = slowStore(1_000);
    const services = { store, logger } as unknown as GraphQLServices;
    const body = await post(services, 100, '{ a: entity(urn: "urn:li:corpuser:a") { urn } }');
    // Answered when the budget ran out, not when the read it was waiting on finished.
    expect(body.elapsedMs).toBeLessThan(900);
    expect(body.errors?.[0]?.message).toBe(
      'The request ran past its time budget of 100 ms (GRAPHQL_TIMEOUT_MS) and was aborted; ' +
        'ask for fewer results or split the query',
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 400, type: 'BAD_REQUEST' });
  });

  it('does not touch a query that finishes within it', async () => {
    const services = { store: slowStore(10), logger } as unknown as GraphQLServices;
    const body = await post(services, 5_000, '{ entityExists(urn: "urn:li:corpuser:a") }');
    expect(body.errors).toBeUndefined();
  });
});
