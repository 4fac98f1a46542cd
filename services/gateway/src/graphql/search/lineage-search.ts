import { ValidationError } from '@catalog/model';
import type { GraphIndex } from '@catalog/search';
import type { GraphQLContext } from '../context.js';
import { requireRef } from '../entities/entity-ref.js';
import { entitiesOf, filterOf } from './search-resolvers.js';
import { LINEAGE_RELATIONSHIPS as LINEAGE } from '../entities/lineage-relationships.js';

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

/** How far lineage is followed: the ecosystem's UI asks for up to three hops. */
const MAX_HOPS = 3;
/** Entities reached at most, so one hub dataset cannot make a request unbounded (nor its urn filter). */
const MAX_REACHED = 1_000;

/** The entities lineage reaches from `urn`, by the hop count they are first reached at. */
export async function lineageDegrees(
  graph: GraphIndex,
  urn: string,
  direction: 'UPSTREAM' | 'DOWNSTREAM',
): Promise<Map<string, number>> {
  const up = direction === 'UPSTREAM';
  const degrees = new Map<string, number>();
  let frontier = [urn];
  for (let hop = 1; hop <= MAX_HOPS && frontier.length > 0 && degrees.size < MAX_REACHED; hop++) {
    const next: string[] = [];
    for (const from of frontier) {
      const asks: ['INCOMING' | 'OUTGOING', readonly string[]][] = [
        [up ? 'OUTGOING' : 'INCOMING', LINEAGE.upstream],
        [up ? 'INCOMING' : 'OUTGOING', LINEAGE.downstream],
      ];
      for (const [edgeDirection, types] of asks) {
        if (types.length === 0) continue;
        const related = await graph.related({
          urn: from,
          direction: edgeDirection,
          types,
          start: 0,
          count: MAX_REACHED,
        });
        for (const r of related.relationships) {
          if (r.entity === urn || degrees.has(r.entity)) continue;
          degrees.set(r.entity, hop);
          next.push(r.entity);
        }
      }
    }
    frontier = next;
  }
  return degrees;
}

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
  const degrees = await lineageDegrees(ctx.services.graph, input.urn, input.direction);
  if (degrees.size === 0) return { start, count: 0, total: 0, searchResults: [], facets: [] };
  const reached = new Set([...degrees.keys()].map((u) => u.split(':')[2] ?? ''));
  const wanted = entitiesOf(input.types).filter((e) => reached.has(e));
  if (wanted.length === 0) return { start, count: 0, total: 0, searchResults: [], facets: [] };
  const base = filterOf(input);
  const among = { field: 'urn', values: [...degrees.keys()], condition: 'EQUAL' as const };
  const conjunctions = base.or.length === 0 ? [{ and: [] }] : base.or;
  await ctx.budget.takeTurn();
  const response = await ctx.services.search.search({
    entityTypes: wanted,
    input: input.query?.trim() ? input.query : '*',
    filter: { or: conjunctions.map((c) => ({ and: [...c.and, among] })) },
    start,
    count,
  });
  return {
    start,
    count: response.hits.length,
    total: response.total,
    searchResults: response.hits.map((hit) => ({
      entity: { urn: hit.urn, entity: hit.entityType },
      degree: degrees.get(hit.urn) ?? 1,
      degrees: [degrees.get(hit.urn) ?? 1],
      matchedFields: hit.matchedFields.map((m) => ({ name: m.name, value: m.value, entity: null })),
      insights: [],
    })),
    facets: [],
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
  const next = start + page.count;
  return {
    count: page.count,
    total: page.total,
    searchResults: page.searchResults,
    facets: page.facets,
    nextScrollId:
      page.count > 0 && next < page.total ? Buffer.from(String(next)).toString('base64url') : null,
  };
}
