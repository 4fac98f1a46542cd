import { MAX_PAGE_SIZE } from '@catalog/search';

/** What one GraphQL request may ask for and cost; read once in config.ts, documented in the README. */
export interface GraphQLLimits {
  /** GRAPHQL_QUERY_COMPLEXITY_LIMIT: the cost of a query, list sizes multiplied in (query-cost.ts). */
  readonly maxCost: number;
  /** GRAPHQL_QUERY_DEPTH_LIMIT: nesting of fields (fragments and inline fragments add no level). */
  readonly maxDepth: number;
  /** GRAPHQL_MAX_ALIASES: aliased fields in an operation, its fragments included. */
  readonly maxAliases: number;
  /** GRAPHQL_MAX_ENTITIES: entities one request reads from the store. */
  readonly maxEntities: number;
  /** GRAPHQL_MAX_RESPONSE_BYTES: the JSON a response may carry. */
  readonly maxResponseBytes: number;
  /** GRAPHQL_TIMEOUT_MS: how long one request may run before what remains is aborted. */
  readonly timeoutMs: number;
}

/**
 * The largest page a list argument (`count`, `first`, `limit`) may ask for: the search port's result
 * window, which is also the ecosystem's default `SEARCH_SERVICE_LIMIT_RESULTS_MAX`. Above it the query
 * is refused before it runs (the ecosystem clamps instead; refusing names the limit to the caller).
 */
export const MAX_LIST_SIZE = MAX_PAGE_SIZE;

/**
 * The defaults fit the ecosystem's own clients: the SDK's `get_urns_by_filter` scroll of 10,000 urns
 * costs 70,001, a UI search page of 20 with facets a few thousand, mcp-server-datahub's entity query
 * (34 aliases, fields 18 deep) a few hundred; thirty aliased searches of 10,000 cost over 900,000. The
 * depth leaves room above that entity query; the cost, which multiplies list sizes in, is what bounds a
 * deep query's work.
 */
export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = Object.freeze({
  maxCost: 100_000,
  maxDepth: 24,
  maxAliases: 50,
  maxEntities: 20_000,
  maxResponseBytes: 16 * 1024 * 1024,
  timeoutMs: 30_000,
});

/** "100,000": numbers in limit messages, as a reader compares them. */
export function formatLimit(value: number): string {
  return value.toLocaleString('en-US');
}
