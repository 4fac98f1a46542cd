import { isUrn, ValidationError } from '@catalog/model';
import type { Criterion } from '@catalog/search';
import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';
import { entitiesOf, filterOf } from './search-resolvers.js';

export const browseV2Schema = `
input BrowseV2Input {
  type: EntityType
  types: [EntityType!]
  path: [String!]!
  start: Int
  count: Int
  orFilters: [AndFilterInput!]
  viewUrn: String
  query: String
  searchFlags: SearchFlags
}
type BrowseResultGroupV2 { name: String! entity: Entity count: Long! hasSubGroups: Boolean! }
type BrowseResultMetadata2 { path: [String!]! totalNumEntities: Long! }
type BrowseResultsV2 {
  groups: [BrowseResultGroupV2!]!
  start: Int!
  count: Int!
  total: Int!
  metadata: BrowseResultMetadata2!
}
extend type Query { browseV2(input: BrowseV2Input!): BrowseResultsV2 }
`;

/** Distinct browse paths read per level: a folder with more distinct paths below it lists the first ones. */
const MAX_PATHS = 10_000;
const BROWSE_V2_FIELD = 'browsePathV2';

interface BrowseV2Input {
  readonly type?: string | null;
  readonly types?: readonly string[] | null;
  readonly path: readonly string[];
  readonly start?: number | null;
  readonly count?: number | null;
  readonly orFilters?: readonly { and?: readonly never[] | null }[] | null;
  readonly query?: string | null;
}

/**
 * browseV2 over the `browsePathsV2` of entities: the folders one level below `path`, each with the
 * entities at or below it. The index holds each entity's path as one keyword; the folders are the next
 * segment of the paths that lie below `path`, counted from a facet over those paths.
 */
export async function browseV2(_root: unknown, { input }: { input: BrowseV2Input }, ctx: GraphQLContext) {
  const types = input.types ?? (input.type ? [input.type] : null);
  const entities = entitiesOf(types);
  const start = input.start ?? 0;
  const count = input.count ?? 10;
  if (start < 0 || count < 0 || count > 10_000)
    throw new ValidationError('start must be 0 or more and count 0 to 10000');
  const prefix = input.path.map((p) => `/${p}`).join('');
  const base = filterOf(input);
  // The entities in the folder itself or anywhere below it (every conjunction, once with each).
  const within: readonly Criterion[] =
    prefix === ''
      ? []
      : [
          { field: BROWSE_V2_FIELD, values: [prefix], condition: 'EQUAL' },
          { field: BROWSE_V2_FIELD, values: [`${prefix}/`], condition: 'START_WITH' },
        ];
  const conjunctions = base.or.length === 0 ? [{ and: [] as readonly Criterion[] }] : base.or;
  const filter = {
    or:
      within.length === 0
        ? conjunctions
        : conjunctions.flatMap((c) => within.map((criterion) => ({ and: [...c.and, criterion] }))),
  };
  await ctx.budget.takeTurn();
  const response = await ctx.services.search.search({
    entityTypes: entities,
    input: input.query?.trim() ? input.query : '*',
    filter,
    start: 0,
    count: 0,
    facets: [BROWSE_V2_FIELD],
    maxAggValues: MAX_PATHS,
  });
  const groups = new Map<string, { count: number; deeper: boolean }>();
  for (const value of response.aggregations.find((a) => a.field === BROWSE_V2_FIELD)?.values ?? []) {
    if (!value.value.startsWith(`${prefix}/`)) continue;
    const rest = value.value.slice(prefix.length + 1).split('/');
    const name = rest[0];
    if (name === undefined || name === '') continue;
    const group = groups.get(name) ?? { count: 0, deeper: false };
    group.count += value.count;
    group.deeper ||= rest.length > 1;
    groups.set(name, group);
  }
  const all = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    groups: all.slice(start, start + count).map(([name, g]) => ({
      name,
      entity: isUrn(name) ? (refOf(name) ?? null) : null,
      count: g.count,
      hasSubGroups: g.deeper,
    })),
    start,
    count: Math.min(count, Math.max(all.length - start, 0)),
    total: all.length,
    metadata: { path: input.path, totalNumEntities: response.total },
  };
}
