import { ValidationError } from '@catalog/model';
import type { Filter } from '../../application/entity-search.js';
import type { GraphQLContext } from '../context.js';
import { filterOf, type FacetFilter } from '../search/search-resolvers.js';

/** The ecosystem's query.graphql listing of Query entities (what mcp-server-datahub's get_dataset_queries sends). */
export const listQueriesSchema = `
input SortQueriesInput { sortCriterion: SortCriterion! }

input ListQueriesInput {
  start: Int
  count: Int
  query: String
  source: QuerySource
  datasetUrn: String
  orFilters: [AndFilterInput!]
  sortInput: SortQueriesInput
}

type ListQueriesResult { start: Int! count: Int! total: Int! queries: [QueryEntity!]! }

extend type Query {
  listQueries(input: ListQueriesInput!): ListQueriesResult
}
`;

interface ListQueriesInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
  readonly source?: 'MANUAL' | 'SYSTEM' | null;
  readonly datasetUrn?: string | null;
  readonly orFilters?: readonly { and?: readonly FacetFilter[] | null }[] | null;
  readonly sortInput?: {
    readonly sortCriterion: { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' };
  } | null;
}

/** The resolver's defaults (ListQueriesResolver): 100 per page, newest created first. */
const DEFAULT_COUNT = 100;
const MAX_COUNT = 10_000;

/**
 * `source` and `datasetUrn` become criteria ANDed into every conjunction of `orFilters` (the
 * ecosystem's combineFilters), or the only conjunction.
 */
function queryFilter(input: ListQueriesInput): Filter {
  const fixed = [
    ...(input.source ? [{ field: 'source', values: [input.source], condition: 'EQUAL' as const }] : []),
    ...(input.datasetUrn
      ? [{ field: 'entities', values: [input.datasetUrn], condition: 'EQUAL' as const }]
      : []),
  ];
  const given = filterOf({ orFilters: input.orFilters ?? null });
  if (given.or.length === 0) return { or: fixed.length === 0 ? [] : [{ and: fixed }] };
  return { or: given.or.map((c) => ({ and: [...c.and, ...fixed] })) };
}

export function listQueriesResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      listQueries: async (_root: unknown, { input }: { input: ListQueriesInput }, ctx: GraphQLContext) => {
        const start = input.start ?? 0;
        const count = input.count ?? DEFAULT_COUNT;
        if (!Number.isInteger(start) || start < 0)
          throw new ValidationError(`start must be 0 or more, got ${start}`);
        if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT)
          throw new ValidationError(`count must be an integer from 0 to ${MAX_COUNT}, got ${count}`);
        const sort = input.sortInput?.sortCriterion ?? { field: 'createdAt', sortOrder: 'DESCENDING' };
        await ctx.budget.takeTurn();
        const page = await ctx.services.app.search.search(ctx.auth, {
          entityTypes: ['query'],
          input: (input.query ?? '').trim() === '' ? '*' : input.query!,
          filter: queryFilter(input),
          start,
          count,
          sort: [{ field: sort.field, order: sort.sortOrder }],
        });
        return {
          start,
          count: page.hits.length,
          total: page.total,
          queries: page.hits.map((hit) => ({ urn: hit.urn, entity: hit.entityType })),
        };
      },
    },
  };
}
