import {
  ingestionSourceFields,
  type UpdateIngestionSourceInput,
} from '../../application/ingestion-source-info.js';
import type { SourceSort, StoredSource } from '../../application/ingestion-sources.js';
import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';
import { pageOf } from '../list-page.js';
import { filterOf } from '../search/search-resolvers.js';

const ENTITY = 'dataHubIngestionSource';
const INFO = 'dataHubIngestionSourceInfo';

/**
 * DataHub ingestion sources (ingestion.graphql). The entity schema declares `IngestionSource` (urn, type
 * and ownership; in the ecosystem it is no Entity), so its ingestion fields extend it. `executions` lists
 * the source's execution requests (execution-requests.ts), newest first.
 */
export const ingestionSourceSchema = `
type StringMapEntry { key: String! value: String }
input StringMapEntryInput { key: String! value: String }

type IngestionSchedule { timezone: String interval: String! }
type IngestionConfig {
  recipe: String!
  executorId: String!
  version: String
  debugMode: Boolean
  extraArgs: [StringMapEntry!]
}
type IngestionSourceExecutionRequests {
  start: Int
  count: Int
  total: Int
  executionRequests: [ExecutionRequest!]!
}

extend type IngestionSource {
  name: String!
  schedule: IngestionSchedule
  platform: DataPlatform
  config: IngestionConfig!
  executions(start: Int, count: Int): IngestionSourceExecutionRequests
}

input ListIngestionSourcesInput {
  start: Int
  count: Int
  query: String
  filters: [FacetFilterInput!]
  sort: SortCriterion
}
type ListIngestionSourcesResult {
  start: Int!
  count: Int!
  total: Int!
  ingestionSources: [IngestionSource!]!
}

input UpdateIngestionSourceConfigInput {
  recipe: String!
  version: String
  executorId: String!
  debugMode: Boolean
  extraArgs: [StringMapEntryInput!]
}
input UpdateIngestionSourceScheduleInput { interval: String! timezone: String! }
input UpdateIngestionSourceInput {
  name: String!
  type: String!
  description: String
  schedule: UpdateIngestionSourceScheduleInput
  config: UpdateIngestionSourceConfigInput!
}

extend type Query {
  listIngestionSources(input: ListIngestionSourcesInput!): ListIngestionSourcesResult
  ingestionSource(urn: String!): IngestionSource
}

extend type Mutation {
  createIngestionSource(input: UpdateIngestionSourceInput!): String
  updateIngestionSource(urn: String!, input: UpdateIngestionSourceInput!): String
  deleteIngestionSource(urn: String!): String
  createIngestionExecutionRequest(input: CreateIngestionExecutionRequestInput!): String
}

input CreateIngestionExecutionRequestInput {
  ingestionSourceUrn: String!
}
`;

type Json = Readonly<Record<string, unknown>>;

interface ListIngestionSourcesInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
  readonly filters?: Parameters<typeof filterOf>[0]['filters'];
  readonly sort?: SourceSort | null;
}

/** A source in a result: its ref, with the stored aspect when the resolver already read it. */
type SourceRef = EntityRef & { readonly known?: { readonly info?: Json } };

const sourceRef = (source: StoredSource): SourceRef => ({
  urn: source.urn,
  entity: ENTITY,
  known: { info: source.info },
});

/** The stored aspect of a source in a result: the one the resolver read, else the request's batched read. */
async function infoOf(ref: SourceRef, ctx: GraphQLContext): Promise<Json | undefined> {
  return ref.known?.info ?? (await ctx.entities.aspect<Json>(ref.urn, INFO));
}

async function fieldsOf(ref: SourceRef, ctx: GraphQLContext) {
  const info = await infoOf(ref, ctx);
  return info === undefined ? undefined : ingestionSourceFields(info);
}

export function ingestionSourceResolvers(): Record<string, Record<string, unknown>> {
  return {
    IngestionSource: {
      // As the ecosystem's IngestionSource (no Entity): the source type (mysql, …).
      type: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        (await fieldsOf(ref, ctx))?.sourceType ?? '',
      name: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        (await fieldsOf(ref, ctx))?.name ?? '',
      schedule: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        (await fieldsOf(ref, ctx))?.schedule ?? null,
      platform: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) =>
        refOf((await fieldsOf(ref, ctx))?.platform) ?? null,
      // Recipes name hosts, users and secrets: only who manages ingestion reads them, whatever the path
      // (a listing has decided already; a generic entity read has not).
      config: async (ref: SourceRef, _a: unknown, ctx: GraphQLContext) => {
        if (ref.known?.info === undefined) await ctx.services.app.ingestionSources.mayReadRecipes(ctx.auth);
        return (await fieldsOf(ref, ctx))?.config ?? { recipe: '{}', executorId: 'default' };
      },
      executions: async (
        ref: SourceRef,
        args: { start?: number | null; count?: number | null },
        ctx: GraphQLContext,
      ) => {
        const start = Math.max(0, args.start ?? 0);
        const count = Math.min(Math.max(0, args.count ?? 10), 1000);
        const page = await ctx.services.app.ingestionSources.executions(ctx.auth, ref.urn, { start, count });
        return {
          start,
          count: page.urns.length,
          total: page.total,
          executionRequests: page.urns.map((urn) => ({ urn, entity: 'dataHubExecutionRequest' })),
        };
      },
    },
    Query: {
      listIngestionSources: async (
        _r: unknown,
        { input }: { input: ListIngestionSourcesInput },
        ctx: GraphQLContext,
      ) => {
        const { start, count } = pageOf(input);
        const page = await ctx.services.app.ingestionSources.list(ctx.auth, {
          query: input.query ?? null,
          filter: filterOf({ filters: input.filters ?? null }),
          sort: input.sort ?? null,
          start,
          count,
        });
        const sources = page.sources.map(sourceRef);
        return { start, count: sources.length, total: page.total, ingestionSources: sources };
      },
      ingestionSource: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        const source = await ctx.services.app.ingestionSources.get(ctx.auth, urn);
        return source === undefined ? null : sourceRef(source);
      },
    },
    Mutation: {
      createIngestionSource: (
        _r: unknown,
        { input }: { input: UpdateIngestionSourceInput },
        ctx: GraphQLContext,
      ) => ctx.services.app.ingestionSources.create(ctx.auth, input),
      updateIngestionSource: (
        _r: unknown,
        { urn, input }: { urn: string; input: UpdateIngestionSourceInput },
        ctx: GraphQLContext,
      ) => ctx.services.app.ingestionSources.update(ctx.auth, urn, input),
      deleteIngestionSource: (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) =>
        ctx.services.app.ingestionSources.delete(ctx.auth, urn),
      createIngestionExecutionRequest: (
        _r: unknown,
        { input }: { input: { ingestionSourceUrn: string } },
        ctx: GraphQLContext,
      ) => ctx.services.app.ingestionSources.requestExecution(ctx.auth, input.ingestionSourceUrn),
    },
  };
}
