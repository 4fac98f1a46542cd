import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import type { LineageFlags } from '../../application/lineage.js';
import { requireRef } from '../entities/entity-ref.js';
import { entityOfType } from '../entities/entity-types.js';
import { entitiesOf, facetsOf, filterOf, sortOf, type SortInput } from './search-resolvers.js';

export const lineageSearchSchema = `
input EntityTypeToPlatforms {
  entityType: EntityType!
  platforms: [String!]
}
input LineageFlags {
  entitiesExploredPerHopLimit: Int
  startTimeMillis: Long
  endTimeMillis: Long
  ignoreAsHops: [EntityTypeToPlatforms!]
}
input SearchAcrossLineageInput {
  urn: String
  direction: LineageDirection!
  types: [EntityType!]
  query: String
  start: Int
  count: Int
  filters: [FacetFilterInput!] @deprecated(reason: "Use \`orFilters\`- they are more expressive")
  orFilters: [AndFilterInput!]
  startTimeMillis: Long @deprecated(reason: "Use LineageFlags instead")
  endTimeMillis: Long @deprecated(reason: "Use LineageFlags instead")
  searchFlags: SearchFlags
  lineageFlags: LineageFlags
  viewUrn: String
  sortInput: SearchSortInput
}
input ScrollAcrossLineageInput {
  urn: String
  direction: LineageDirection!
  types: [EntityType!]
  query: String
  scrollId: String
  keepAlive: String
  count: Int
  orFilters: [AndFilterInput!]
  startTimeMillis: Long
  endTimeMillis: Long
  searchFlags: SearchFlags
  lineageFlags: LineageFlags
}
enum SchemaFieldValidationMode { NONE AUTO ALWAYS }
input SearchAcrossLineageCountsInput {
  urn: String!
  direction: LineageDirection!
  types: [EntityType!]
  orFilters: [AndFilterInput!]
  lineageFlags: LineageFlags
  includeGhostEntities: Boolean
  includeSoftDeleted: Boolean
  validateSchemaFields: SchemaFieldValidationMode = AUTO
}
type SearchAcrossLineageCounts {
  total: Int!
}
type EntityPath {
  path: [Entity]!
}
type SearchAcrossLineageResult {
  entity: Entity!
  insights: [SearchInsight!]
  matchedFields: [MatchedField!]!
  paths: [EntityPath]
  degree: Int!
  degrees: [Int!]
  explored: Boolean!
  truncatedChildren: Boolean!
  ignoredAsHop: Boolean!
}
type SearchAcrossLineageResults {
  start: Int!
  count: Int!
  total: Int!
  searchResults: [SearchAcrossLineageResult!]!
  facets: [FacetMetadata!]
  isPartial: Boolean
}
type ScrollAcrossLineageResults {
  nextScrollId: String
  count: Int!
  total: Int!
  searchResults: [SearchAcrossLineageResult!]!
  facets: [FacetMetadata!]
  isPartial: Boolean
}
extend type Query {
  searchAcrossLineage(input: SearchAcrossLineageInput!): SearchAcrossLineageResults
  scrollAcrossLineage(input: ScrollAcrossLineageInput!): ScrollAcrossLineageResults
  searchAcrossLineageCounts(input: SearchAcrossLineageCountsInput!): SearchAcrossLineageCounts
}
`;

interface LineageFlagsInput {
  readonly entitiesExploredPerHopLimit?: number | null;
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
  readonly ignoreAsHops?: readonly { entityType: string; platforms?: readonly string[] | null }[] | null;
}

interface LineageInput {
  readonly urn?: string | null;
  readonly direction: 'UPSTREAM' | 'DOWNSTREAM';
  readonly types?: readonly string[] | null;
  readonly query?: string | null;
  readonly start?: number | null;
  readonly scrollId?: string | null;
  readonly count?: number | null;
  readonly filters?: readonly never[] | null;
  readonly orFilters?: readonly { and?: readonly never[] | null }[] | null;
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
  readonly searchFlags?: {
    readonly includeSoftDeleted?: boolean | null;
    readonly skipAggregates?: boolean | null;
    readonly maxAggValues?: number | null;
    readonly groupingSpec?: {
      readonly groupingCriteria?:
        readonly { baseEntityType?: string | null; groupingEntityType: string }[] | null;
    } | null;
  } | null;
  readonly lineageFlags?: LineageFlagsInput | null;
  readonly viewUrn?: string | null;
  readonly sortInput?: SortInput | null;
}

interface CountsInput {
  readonly urn: string;
  readonly direction: 'UPSTREAM' | 'DOWNSTREAM';
  readonly types?: readonly string[] | null;
  readonly orFilters?: readonly { and?: readonly never[] | null }[] | null;
  readonly lineageFlags?: LineageFlagsInput | null;
  readonly includeGhostEntities?: boolean | null;
  readonly includeSoftDeleted?: boolean | null;
  readonly validateSchemaFields?: 'NONE' | 'AUTO' | 'ALWAYS' | null;
}

/** Lineage flags as the use case takes them; the input's own time window when the flags have none. */
function flagsOf(input: {
  readonly lineageFlags?: LineageFlagsInput | null;
  readonly startTimeMillis?: number | null;
  readonly endTimeMillis?: number | null;
}): LineageFlags {
  const flags = input.lineageFlags ?? {};
  const start = flags.startTimeMillis ?? input.startTimeMillis ?? undefined;
  const end = flags.endTimeMillis ?? input.endTimeMillis ?? undefined;
  const limit = flags.entitiesExploredPerHopLimit ?? undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw new ValidationError(`entitiesExploredPerHopLimit must be 0 or more, got ${limit}`);
  return {
    ...(start === undefined ? {} : { startTimeMillis: start }),
    ...(end === undefined ? {} : { endTimeMillis: end }),
    ...(limit === undefined ? {} : { entitiesExploredPerHopLimit: limit }),
    ...(flags.ignoreAsHops === undefined || flags.ignoreAsHops === null
      ? {}
      : {
          ignoreAsHops: flags.ignoreAsHops.map((h) => ({
            entityType: entityOfType(h.entityType),
            ...(h.platforms === undefined || h.platforms === null ? {} : { platforms: h.platforms }),
          })),
        }),
  };
}

/**
 * Whether schema fields are shown as their datasets: the ecosystem's default, unless the grouping spec
 * names schema fields to group as something else (or as themselves).
 */
function schemaFieldsAsDatasets(input: LineageInput): boolean {
  const criteria = input.searchFlags?.groupingSpec?.groupingCriteria;
  if (criteria === undefined || criteria === null) return true;
  const forFields = criteria.find((c) => (c.baseEntityType ?? 'SCHEMA_FIELD') === 'SCHEMA_FIELD');
  return forFields?.groupingEntityType === 'DATASET';
}

const entityRef = (urn: string) => ({ urn, entity: urn.split(':')[2] ?? '' });

/**
 * One page of a lineage search. A scroll always shows schema fields as their datasets, whatever the
 * grouping spec says (as the ecosystem's scroll does); a search follows the grouping spec.
 */
async function lineageSearch(ctx: GraphQLContext, input: LineageInput, start: number, scroll: boolean) {
  if (input.urn === undefined || input.urn === null)
    throw new ValidationError('A lineage search needs the urn of the entity it starts from');
  requireRef(input.urn);
  if (input.viewUrn !== undefined && input.viewUrn !== null)
    throw new ValidationError('viewUrn is not supported by lineage search');
  const count = input.count ?? 10;
  if (count < 0 || count > 10_000) throw new ValidationError('count must be from 0 to 10000');
  await ctx.budget.takeTurn();
  const sort = sortOf(input.sortInput);
  const entityTypes = entitiesOf(input.types);
  const flags = input.searchFlags ?? {};
  const page = await ctx.services.app.lineage.searchAcross(ctx.auth, {
    urn: input.urn,
    direction: input.direction,
    entityTypes,
    query: input.query ?? '',
    filter: filterOf(input),
    start,
    count,
    ...(sort.length === 0 ? {} : { sort }),
    ...(flags.includeSoftDeleted === true ? { includeRemoved: true } : {}),
    facets: flags.skipAggregates !== true,
    ...(flags.maxAggValues === undefined || flags.maxAggValues === null
      ? {}
      : { maxAggValues: flags.maxAggValues }),
    lineageFlags: flagsOf(input),
    schemaFieldsAsDatasets: scroll || schemaFieldsAsDatasets(input),
  });
  return {
    start,
    count: page.hits.length,
    total: page.total,
    searchResults: page.hits.map((hit) => ({
      entity: { urn: hit.urn, entity: hit.entityType },
      degree: hit.degree,
      degrees: hit.degrees,
      paths: hit.paths.map((path) => ({ path: path.map(entityRef) })),
      explored: hit.explored,
      truncatedChildren: hit.truncatedChildren,
      ignoredAsHop: hit.ignoredAsHop,
      matchedFields: hit.matchedFields.map((m) => ({ name: m.name, value: m.value, entity: null })),
      insights: [],
    })),
    facets: facetsOf(page),
    isPartial: page.partial,
    scanned: page.scanned,
  };
}

export async function searchAcrossLineageCounts(
  _r: unknown,
  { input }: { input: CountsInput },
  ctx: GraphQLContext,
) {
  requireRef(input.urn);
  await ctx.budget.takeTurn();
  const total = await ctx.services.app.lineage.countAcross(ctx.auth, {
    urn: input.urn,
    direction: input.direction,
    entityTypes:
      input.types === undefined || input.types === null ? [] : [...new Set(input.types.map(entityOfType))],
    filter: filterOf(input),
    lineageFlags: flagsOf(input),
    includeGhostEntities: input.includeGhostEntities === true,
    ...(input.includeSoftDeleted === undefined || input.includeSoftDeleted === null
      ? {}
      : { includeSoftDeleted: input.includeSoftDeleted }),
    validateSchemaFields: input.validateSchemaFields ?? 'AUTO',
  });
  return { total };
}

export async function searchAcrossLineage(
  _r: unknown,
  { input }: { input: LineageInput },
  ctx: GraphQLContext,
) {
  return lineageSearch(ctx, input, input.start ?? 0, false);
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
  const page = await lineageSearch(ctx, input, start, true);
  // The next page starts after the index's page, hits the actor may not read included.
  const next = start + page.scanned.count;
  return {
    count: page.count,
    total: page.total,
    searchResults: page.searchResults,
    facets: page.facets,
    isPartial: page.isPartial,
    nextScrollId:
      page.scanned.count > 0 && next < page.scanned.total
        ? Buffer.from(String(next)).toString('base64url')
        : null,
  };
}
