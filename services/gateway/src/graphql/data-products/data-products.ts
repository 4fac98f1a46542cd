import type { DataProductCreation, DataProductUpdate } from '../../application/data-products.js';
import type { GraphQLContext } from '../context.js';
import { auditStamp, customProperties, num, str } from '../entities/aspect-views.js';
import { refOf, requireRef, type EntityRef } from '../entities/entity-ref.js';
import { entitiesOf } from '../search/search-resolvers.js';
import { searchWithin, type ScopedSearchInput } from '../search/scoped-search.js';

/** Data products (the ecosystem's entity.graphql and search.graphql parts of them). */
export const dataProductSchema = `
type ResolvedAuditStamp { time: Long! actor: CorpUser }

type DataProductProperties {
  name: String!
  description: String
  externalUrl: String
  numAssets: Int
  customProperties: [CustomPropertiesEntry!]
  createdOn: ResolvedAuditStamp
  parentDataProduct: DataProduct
}

extend type DataProduct {
  properties: DataProductProperties
  entities(input: SearchAcrossEntitiesInput): SearchResults
  parentDataProducts: [DataProduct!]!
}

input CreateDataProductPropertiesInput { name: String! description: String parentDataProduct: String }
input CreateDataProductInput { properties: CreateDataProductPropertiesInput! domainUrn: String! id: String }
input UpdateDataProductInput { name: String description: String parentDataProduct: String }
input BatchSetDataProductInput { dataProductUrn: String resourceUrns: [String!]! }
input BatchSetDataProductsInput { dataProductUrns: [String!]! resourceUrns: [String!]! }

extend type Query {
  dataProduct(urn: String!): DataProduct
  listDataProductAssets(urn: String!, input: SearchAcrossEntitiesInput!): SearchResults
}

extend type Mutation {
  createDataProduct(input: CreateDataProductInput!): DataProduct
  updateDataProduct(urn: String!, input: UpdateDataProductInput!): DataProduct
  deleteDataProduct(urn: String!): Boolean
  batchSetDataProduct(input: BatchSetDataProductInput!): Boolean
  batchAddToDataProducts(input: BatchSetDataProductsInput!): Boolean
  batchRemoveFromDataProducts(input: BatchSetDataProductsInput!): Boolean
}
`;

type Json = Readonly<Record<string, unknown>>;

interface CreateArgs {
  readonly input: {
    readonly properties: { name: string; description?: string | null; parentDataProduct?: string | null };
    readonly domainUrn: string;
    readonly id?: string | null;
  };
}

const productRef = (urn: string): EntityRef => ({ urn, entity: 'dataProduct' });

/**
 * The assets of a data product matching the input: the search of the entity types its assets are of
 * (or those the input names) scoped to its asset urns. None when it holds none.
 */
async function assetsPage(ctx: GraphQLContext, urn: string, input: ScopedSearchInput | null | undefined) {
  const assets = await ctx.services.app.dataProducts.assets(ctx.auth, urn);
  const start = input?.start ?? 0;
  const count = input?.count ?? 10;
  if (assets.length === 0) return { start, count, total: 0, searchResults: [], facets: [], suggestions: [] };
  const types =
    input?.types !== undefined && input.types !== null && input.types.length > 0
      ? entitiesOf(input.types)
      : [...new Set(assets.map((a) => refOf(a)?.entity ?? ''))].filter((e) => e !== '');
  return searchWithin(ctx, input, { field: 'urn', values: assets }, types, 10);
}

export function dataProductResolvers(): Record<string, Record<string, unknown>> {
  const app = (ctx: GraphQLContext) => ctx.services.app.dataProducts;
  const existing = async (ctx: GraphQLContext, urn: string) =>
    (await ctx.entities.exists(urn)) ? productRef(urn) : null;
  return {
    DataProduct: {
      properties: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await ctx.entities.aspect<Json>(ref.urn, 'dataProductProperties');
        if (value === undefined) return null;
        const created = value['created'] as Json | undefined;
        return {
          name: str(value['name']) ?? ref.urn,
          description: str(value['description']),
          externalUrl: str(value['externalUrl']),
          numAssets: Array.isArray(value['assets']) ? value['assets'].length : 0,
          customProperties: customProperties(value['customProperties'], ref),
          createdOn:
            created === undefined || num(created['time']) === null
              ? null
              : { time: auditStamp(created).time, actor: refOf(created['actor']) ?? null },
          parentDataProduct: refOf(value['parentDataProduct']) ?? null,
        };
      },
      entities: (ref: EntityRef, args: { input?: ScopedSearchInput | null }, ctx: GraphQLContext) =>
        assetsPage(ctx, ref.urn, args.input),
      parentDataProducts: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        // Nearest first, read as the actor may see each (the chain stops at a cycle or a product it may not read).
        const chain: EntityRef[] = [];
        let next = (await ctx.entities.aspect<Json>(ref.urn, 'dataProductProperties'))?.['parentDataProduct'];
        while (typeof next === 'string' && next !== ref.urn && !chain.some((p) => p.urn === next)) {
          chain.push(productRef(next));
          next = (await ctx.entities.aspect<Json>(next, 'dataProductProperties'))?.['parentDataProduct'];
        }
        return chain;
      },
    },
    Query: {
      dataProduct: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        const ref = requireRef(urn);
        return ref.entity === 'dataProduct' ? existing(ctx, ref.urn) : null;
      },
      listDataProductAssets: (
        _r: unknown,
        args: { urn: string; input: ScopedSearchInput },
        ctx: GraphQLContext,
      ) => assetsPage(ctx, args.urn, args.input),
    },
    Mutation: {
      createDataProduct: async (_r: unknown, { input }: CreateArgs, ctx: GraphQLContext) => {
        const creation: DataProductCreation = {
          id: input.id ?? null,
          domainUrn: input.domainUrn,
          name: input.properties.name,
          description: input.properties.description ?? null,
          parentDataProduct: input.properties.parentDataProduct ?? null,
        };
        return existing(ctx, await app(ctx).create(ctx.auth, creation));
      },
      updateDataProduct: async (
        _r: unknown,
        args: { urn: string; input: DataProductUpdate },
        ctx: GraphQLContext,
      ) => existing(ctx, await app(ctx).update(ctx.auth, args.urn, args.input)),
      deleteDataProduct: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await app(ctx).delete(ctx.auth, urn);
        return true;
      },
      batchSetDataProduct: async (
        _r: unknown,
        { input }: { input: { dataProductUrn?: string | null; resourceUrns: string[] } },
        ctx: GraphQLContext,
      ) => {
        await app(ctx).batchSet(ctx.auth, input.dataProductUrn ?? null, input.resourceUrns);
        return true;
      },
      batchAddToDataProducts: async (
        _r: unknown,
        { input }: { input: { dataProductUrns: string[]; resourceUrns: string[] } },
        ctx: GraphQLContext,
      ) => {
        await app(ctx).batchAdd(ctx.auth, input.dataProductUrns, input.resourceUrns);
        return true;
      },
      batchRemoveFromDataProducts: async (
        _r: unknown,
        { input }: { input: { dataProductUrns: string[]; resourceUrns: string[] } },
        ctx: GraphQLContext,
      ) => {
        await app(ctx).batchRemove(ctx.auth, input.dataProductUrns, input.resourceUrns);
        return true;
      },
    },
  };
}
