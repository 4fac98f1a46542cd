import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTROSPECTION_QUERY, graphqlRequests, type Introspection } from './fuzz-graphql.js';
import { documentRequests, hostilePaths, type OpenApiDocument } from './fuzz-openapi.js';
import { RESTLI_SEEDS } from './fuzz-restli.js';
import type { FuzzRequest } from './fuzz-values.js';
import { SYSTEM_AUTH_HEADERS, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * Property: no request, however malformed, gets a 5xx or a dropped connection, and GraphQL never
 * answers SERVER_ERROR; the catalog is healthy afterwards. Requests come from the served OpenAPI
 * document (every route, Rest.li included, with its parameters, examples and body schemas), the
 * GraphQL schema (every query and mutation field) and hostile paths, each valid or mutated.
 */
const REQUESTS = 10_500;
const CONCURRENCY = 8;
/** A fixed seed keeps CI reproducible; FUZZ_SEED replays another run (the seed is logged). */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_260_000);

let catalog: TestCatalog;
let base: string;

beforeAll(async () => {
  catalog = await startTestCatalog({ MAX_REQUEST_BYTES: String(8 * 1024 * 1024) });
  base = catalog.baseUrl;
});
afterAll(async () => catalog?.dispose());

const HEADERS = {
  'Content-Type': 'application/json',
  'X-RestLi-Protocol-Version': '2.0.0',
  ...SYSTEM_AUTH_HEADERS,
};

/** Now and then the request is sent unauthenticated, with a credential that is not one, or odd headers. */
const authorization: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 15, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { Authorization: '' },
      { Authorization: 'Bearer not.a.jwt' },
      { Authorization: `Bearer ${'a'.repeat(5_000)}` },
      { Authorization: 'Basic %%%' },
      { Authorization: 'Basic __datahub_system' },
      { 'Content-Type': 'text/plain' },
      { 'Content-Type': 'application/json; charset=utf-42' },
      { 'Content-Encoding': 'gzip' },
      { 'X-RestLi-Protocol-Version': '1.0.0' },
    ),
  },
);

interface Finding {
  readonly request: FuzzRequest;
  readonly status: number | 'no response';
  readonly detail: string;
}

/** What one request got: its status, and a finding when it is one. */
interface Outcome {
  readonly status: number | 'no response';
  readonly finding?: Finding;
}

async function send(request: FuzzRequest, extra: Record<string, string>): Promise<Outcome> {
  const headers: Record<string, string> = { ...HEADERS, ...request.headers };
  if ('Authorization' in extra) delete headers['Authorization'];
  Object.assign(headers, extra);
  if (headers['Authorization'] === '') delete headers['Authorization'];
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined || request.method === 'GET' ? {} : { body: request.body }),
      signal: AbortSignal.timeout(60_000),
    });
    text = await res.text();
  } catch (error) {
    const detail = String((error as Error).cause ?? error);
    return { status: 'no response', finding: { request, status: 'no response', detail } };
  }
  if (res.status >= 500)
    return { status: res.status, finding: { request, status: res.status, detail: text.slice(0, 300) } };
  if (request.path.startsWith('/api/graphql') && res.status === 200) {
    const errors = (() => {
      try {
        return (JSON.parse(text) as { errors?: { message?: string; extensions?: { code?: unknown } }[] })
          .errors;
      } catch {
        return undefined;
      }
    })();
    const serverError = errors?.find((e) => e.extensions?.code === 500 || e.extensions?.code === 503);
    if (serverError !== undefined) {
      const detail = `GraphQL ${JSON.stringify(serverError).slice(0, 300)}`;
      return { status: 200, finding: { request, status: 500, detail } };
    }
  }
  return { status: res.status };
}

describe('fuzzing every route of the gateway (embedded family)', () => {
  it(`answers ${REQUESTS} generated requests without a 5xx and stays healthy`, async () => {
    const doc = (await (
      await fetch(`${base}/openapi/v3/api-docs`, { headers: HEADERS })
    ).json()) as OpenApiDocument;
    const introspection = (await (
      await fetch(`${base}/api/graphql`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ query: INTROSPECTION_QUERY }),
      })
    ).json()) as { data: Introspection };
    const documented = documentRequests(doc, RESTLI_SEEDS);
    const graphql = graphqlRequests(introspection.data);
    const requests = fc.sample(
      fc.tuple(
        fc.oneof(
          { weight: 6, arbitrary: documented.arbitrary },
          { weight: 3, arbitrary: graphql.arbitrary },
          { weight: 1, arbitrary: hostilePaths },
        ),
        authorization,
      ),
      { numRuns: REQUESTS, seed: SEED },
    );

    const findings: Finding[] = [];
    const statuses = new Map<string, number>();
    const routesAnswered = new Set<string>();
    const routesSucceeded = new Set<string>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const [request, extra] = requests[next++]!;
          const outcome = await send(request, extra);
          if (outcome.finding !== undefined) findings.push(outcome.finding);
          const key = String(outcome.status);
          routesAnswered.add(request.route);
          if (typeof outcome.status === 'number' && outcome.status < 300) routesSucceeded.add(request.route);
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      }),
    );
    const health = await fetch(`${base}/health`);

    const byRoute = new Map<string, Finding[]>();
    for (const f of findings) {
      const key = `${f.status} ${f.request.route}`;
      byRoute.set(key, [...(byRoute.get(key) ?? []), f]);
    }
    console.log(
      `fuzz: ${requests.length} requests (${documented.routes} documented operations, ${graphql.fields} GraphQL fields) ` +
        `in ${Math.round((Date.now() - started) / 1000)} s, seed ${SEED}: ${findings.length} with a 5xx or no response; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
        `${routesAnswered.size} distinct routes, ${routesSucceeded.size} of them with a 2xx`,
    );
    const report = [...byRoute].map(([key, list]) => {
      const first = list[0]!;
      return `${key} ×${list.length}: ${first.request.method} ${first.request.path.slice(0, 200)} ${first.request.body?.slice(0, 300) ?? ''} → ${first.detail}`;
    });
    expect(report).toEqual([]);
    expect(health.status).toBe(200);
  }, 600_000);
});
