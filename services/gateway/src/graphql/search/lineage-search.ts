import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { requireRef } from '../entities/entity-ref.js';
import { entitiesOf, filterOf } from './search-resolvers.js';

export const lineageSearchSchema = `
input SearchAcrossLineageInput {
  urn: String!
  direction: LineageDirection!
  types: [EntityType!]
  query: String
  start: Int
  count: Int
  orFilters: [AndFilterInput!]
  searchFlags: SearchFlags
}
input ScrollAcrossLineageInput {
  urn: String!
  direction: LineageDirection!
  types: [EntityType!]
  query: String
  scrollId: String
  keepAlive: String
  count: Int
  orFilters: [AndFilterInput!]
  searchFlags: SearchFlags
}
type SearchAcrossLineageResult {
  entity: Entity!
  degree: Int!
  degrees: [Int!]
  matchedFields: [MatchedField!]!
  insights: [SearchInsight!]
}
type SearchAcrossLineageResults {
  start: Int!
  count: Int!
  total: Int!
  searchResults: [SearchAcrossLineageResult!]!
  facets: [FacetMetadata!]
}
type ScrollAcrossLineageResults {
  nextScrollId: String
  count: Int!
  total: Int!
  searchResults: [SearchAcrossLineageResult!]!
  facets: [FacetMetadata!]
}
extend type Query {
  searchAcrossLineage(input: SearchAcrossLineageInput!): SearchAcrossLineageResults
  scrollAcrossLineage(input: ScrollAcrossLineageInput!): ScrollAcrossLineageResults
}
`;

interface LineageInput {
  readonly urn: string;
  readonly direction: 'UPSTREAM' | 'DOWNSTREAM';
  readonly types?: readonly string[] | null;
  readonly query?: string | null;
  readonly start?: number | null;
  readonly scrollId?: string | null;
  readonly count?: number | null;
  readonly orFilters?: readonly { and?: readonly never[] | null }[] | null;
}

async function lineageSearch(ctx: GraphQLContext, input: LineageInput, start: number) {
  requireRef(input.urn);
  const count = input.count ?? 10;
  if (count < 0 || count > 10_000) throw new ValidationError('count must be from 0 to 10000');
  await ctx.budget.takeTurn();
  const page = await ctx.services.app.lineage.searchAcross(ctx.auth, {
    urn: input.urn,
    direction: input.direction,
    entityTypes: entitiesOf(input.types),
    query: input.query ?? '',
    filter: filterOf(input),
    start,
    count,
  });
  return {
    start,
    count: page.hits.length,
    total: page.total,
    searchResults: page.hits.map((hit) => ({
      entity: { urn: hit.urn, entity: hit.entityType },
      degree: hit.degree,
      degrees: [hit.degree],
      matchedFields: hit.matchedFields.map((m) => ({ name: m.name, value: m.value, entity: null })),
      insights: [],
    })),
    facets: [],
    scanned: page.scanned,
  };
}

export async function searchAcrossLineage(
  _r: unknown,
  { input }: { input: LineageInput },
  ctx: GraphQLContext,
) {
  return lineageSearch(ctx, input, input.start ?? 0);
}

export async function scrollAcrossLineage(
  _r: unknown,
  { input }: { input: LineageInput },
  ctx: GraphQLContext,
) {
  const start = input.scrollId
    ? Number.parseInt(Buffer.from(input.scrollId, 'base64url').toString('utf8'), 10)
    : 0;
  if (!Number.isInteger(start) || start < 0)
    throw new ValidationError(`Invalid scrollId ${JSON.stringify(input.scrollId)}`);
  const page = await lineageSearch(ctx, input, start);
  // The next page starts after the index's page, hits the actor may not read included.
  const next = start + page.scanned.count;
  return {
    count: page.count,
    total: page.total,
    searchResults: page.searchResults,
    facets: page.facets,
    nextScrollId:
      page.scanned.count > 0 && next < page.scanned.total
        ? Buffer.from(String(next)).toString('base64url')
        : null,
  };
}
