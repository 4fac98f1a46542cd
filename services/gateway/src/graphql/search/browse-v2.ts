import { isUrn, ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';
import { entitiesOf, filterOf } from './search-resolvers.js';

export const browseV2Schema = `
input BrowseV2Input {
  type: EntityType
  types: [EntityType!]
  path: [String!]
  start: Int
  count: Int
  orFilters: [AndFilterInput!]
  viewUrn: String
  query: String
  searchFlags: SearchFlags
}
type BrowseResultGroupV2 { name: String! entity: Entity count: Long! hasSubGroups: Boolean! }
type BrowseResultsV2 {
  groups: [BrowseResultGroupV2!]!
  start: Int!
  count: Int!
  total: Int!
  metadata: BrowseResultMetadata!
}
extend type Query { browseV2(input: BrowseV2Input!): BrowseResultsV2 }
`;

interface BrowseV2Input {
  readonly type?: string | null;
  readonly types?: readonly string[] | null;
  readonly path?: readonly string[] | null;
  readonly start?: number | null;
  readonly count?: number | null;
  readonly orFilters?: readonly { and?: readonly never[] | null }[] | null;
  readonly query?: string | null;
}

/** browseV2: the folders one level below `path`, each with the entities at or below it. */
export async function browseV2(_root: unknown, { input }: { input: BrowseV2Input }, ctx: GraphQLContext) {
  const types = input.types ?? (input.type ? [input.type] : null);
  const start = input.start ?? 0;
  const count = input.count ?? 10;
  if (start < 0 || count < 0 || count > 10_000)
    throw new ValidationError('start must be 0 or more and count 0 to 10000');
  const path = input.path ?? [];
  await ctx.budget.takeTurn();
  const folders = await ctx.services.app.browse.folders(ctx.auth, {
    entityTypes: entitiesOf(types),
    path,
    filter: filterOf(input),
    query: input.query ?? '',
    start,
    count,
  });
  return {
    groups: folders.groups.map((g) => ({
      name: g.name,
      entity: isUrn(g.name) ? (refOf(g.name) ?? null) : null,
      count: g.count,
      hasSubGroups: g.hasSubGroups,
    })),
    start,
    count: folders.groups.length,
    total: folders.total,
    metadata: { path, totalNumEntities: folders.totalNumEntities },
  };
}
