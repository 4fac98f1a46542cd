import {
  viewFilterOf,
  type StoredView,
  type ViewDefinition,
  type ViewInfo,
  type ViewType,
} from '../../application/views.js';
import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { entityOfType, typeOfEntity } from '../entities/entity-types.js';

/** The ecosystem's views (saved filters, entity.graphql); application/views.ts decides and answers. */
export const viewSchema = `
enum DataHubViewType { PERSONAL GLOBAL }
enum LogicalOperator { AND OR }
type FacetFilter { field: String! condition: FilterOperator values: [String!]! negated: Boolean }
type DataHubViewFilter { operator: LogicalOperator! filters: [FacetFilter!]! }
type DataHubViewDefinition { entityTypes: [EntityType!]! filter: DataHubViewFilter! }
extend type DataHubView {
  viewType: DataHubViewType!
  name: String!
  description: String
  definition: DataHubViewDefinition!
}
input DataHubViewFilterInput { operator: LogicalOperator! filters: [FacetFilterInput!]! }
input DataHubViewDefinitionInput { entityTypes: [EntityType!]! filter: DataHubViewFilterInput! }
input CreateViewInput {
  viewType: DataHubViewType!
  name: String!
  description: String
  definition: DataHubViewDefinitionInput!
}
input UpdateViewInput { name: String description: String definition: DataHubViewDefinitionInput }
input ListMyViewsInput { start: Int count: Int query: String viewType: DataHubViewType }
input ListGlobalViewsInput { start: Int count: Int query: String }
type ListViewsResult { start: Int! count: Int! total: Int! views: [DataHubView!]! }
type GlobalViewsSettings { defaultView: String }
input UpdateGlobalViewsSettingsInput { defaultView: String }

extend type Query {
  listMyViews(input: ListMyViewsInput!): ListViewsResult
  listGlobalViews(input: ListGlobalViewsInput!): ListViewsResult
  globalViewsSettings: GlobalViewsSettings
}

extend type Mutation {
  createView(input: CreateViewInput!): DataHubView
  updateView(urn: String!, input: UpdateViewInput!): DataHubView
  deleteView(urn: String!): Boolean
  updateGlobalViewsSettings(input: UpdateGlobalViewsSettingsInput!): Boolean!
}
`;

interface DefinitionInput {
  readonly entityTypes: readonly string[];
  readonly filter: ViewDefinition['filter'];
}

/** A view as GraphQL resolves it: the entity, with its info known. */
export function viewRef(view: StoredView): EntityRef {
  return { urn: view.urn, entity: 'dataHubView', known: { info: view.info } };
}

const definitionOf = (input: DefinitionInput): ViewDefinition => ({
  entityTypes: input.entityTypes.map(entityOfType),
  filter: input.filter,
});

async function infoOf(ctx: GraphQLContext, ref: EntityRef): Promise<ViewInfo | undefined> {
  return (
    (ref.known?.['info'] as ViewInfo | undefined) ??
    (await ctx.entities.aspect<ViewInfo>(ref.urn, 'dataHubViewInfo'))
  );
}

const page = (result: { start: number; count: number; total: number; views: readonly StoredView[] }) => ({
  ...result,
  views: result.views.map(viewRef),
});

export function viewResolvers() {
  const views = (ctx: GraphQLContext) => ctx.services.app.views;
  return {
    DataHubView: {
      viewType: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) =>
        (await infoOf(ctx, ref))?.type ?? null,
      name: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) =>
        (await infoOf(ctx, ref))?.name ?? null,
      description: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) =>
        (await infoOf(ctx, ref))?.description ?? null,
      definition: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const info = await infoOf(ctx, ref);
        if (info === undefined) return null;
        const filter = viewFilterOf(info);
        return {
          entityTypes: info.definition.entityTypes.map(typeOfEntity),
          filter: {
            operator: filter.operator,
            filters: filter.filters.map((c) => ({
              field: c['field'],
              condition: c['condition'] ?? 'EQUAL',
              values: (c['values'] as string[] | undefined) ?? [],
              negated: c['negated'] ?? false,
            })),
          },
        };
      },
    },
    Query: {
      listMyViews: async (
        _r: unknown,
        args: {
          input: {
            start?: number | null;
            count?: number | null;
            query?: string | null;
            viewType?: ViewType | null;
          };
        },
        ctx: GraphQLContext,
      ) => page(await views(ctx).listMine(ctx.auth, args.input)),
      listGlobalViews: async (
        _r: unknown,
        args: { input: { start?: number | null; count?: number | null; query?: string | null } },
        ctx: GraphQLContext,
      ) => page(await views(ctx).listGlobal(ctx.auth, args.input)),
      globalViewsSettings: async (_r: unknown, _a: unknown, ctx: GraphQLContext) => ({
        defaultView: await views(ctx).globalDefaultView(ctx.auth),
      }),
    },
    Mutation: {
      updateGlobalViewsSettings: async (
        _r: unknown,
        args: { input: { defaultView?: string | null } },
        ctx: GraphQLContext,
      ) => {
        await views(ctx).setGlobalDefaultView(ctx.auth, args.input.defaultView ?? null);
        return true;
      },
      createView: async (
        _r: unknown,
        args: {
          input: {
            viewType: ViewType;
            name: string;
            description?: string | null;
            definition: DefinitionInput;
          };
        },
        ctx: GraphQLContext,
      ) =>
        viewRef(
          await views(ctx).create(ctx.auth, {
            ...args.input,
            definition: definitionOf(args.input.definition),
          }),
        ),
      updateView: async (
        _r: unknown,
        args: {
          urn: string;
          input: { name?: string | null; description?: string | null; definition?: DefinitionInput | null };
        },
        ctx: GraphQLContext,
      ) =>
        viewRef(
          await views(ctx).update(ctx.auth, args.urn, {
            ...args.input,
            definition: args.input.definition ? definitionOf(args.input.definition) : null,
          }),
        ),
      deleteView: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        views(ctx).delete(ctx.auth, args.urn),
    },
  };
}
