import type {
  CreateInput,
  RemoveInput,
  UpdateInput,
  UpsertInput,
} from '../../application/structured-property-admin.js';
import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { ASSIGNMENT_ASPECT, assignedProperties } from './structured-properties-views.js';

/**
 * The structured-property mutations: each calls its use case (application/structured-property-admin.ts)
 * and answers with the property, or the asset's properties as they are after the write.
 */

type Json = Readonly<Record<string, unknown>>;
type Input<T> = { readonly input: T };

/** The asset's properties as they are after the write (the request's read of it is forgotten first). */
async function assetProperties(ctx: GraphQLContext, ref: EntityRef) {
  ctx.entities.clear(ref.urn);
  const value = await ctx.entities.aspect<Json>(ref.urn, ASSIGNMENT_ASPECT);
  return (await assignedProperties(ctx, ref, value)) ?? { properties: [] };
}

export function structuredPropertyMutationResolvers(): Record<string, Record<string, unknown>> {
  return {
    Mutation: {
      createStructuredProperty: async (_r: unknown, { input }: Input<CreateInput>, ctx: GraphQLContext) => {
        const ref = await ctx.services.app.structuredProperties.create(ctx.auth, input);
        ctx.entities.clear(ref.urn);
        return ref;
      },
      updateStructuredProperty: async (_r: unknown, { input }: Input<UpdateInput>, ctx: GraphQLContext) => {
        const ref = await ctx.services.app.structuredProperties.update(ctx.auth, input);
        ctx.entities.clear(ref.urn);
        return ref;
      },
      deleteStructuredProperty: async (
        _r: unknown,
        { input }: Input<{ urn: string }>,
        ctx: GraphQLContext,
      ) => {
        await ctx.services.app.structuredProperties.delete(ctx.auth, input.urn);
        ctx.entities.clear(input.urn);
        return true;
      },
      upsertStructuredProperties: async (_r: unknown, { input }: Input<UpsertInput>, ctx: GraphQLContext) =>
        assetProperties(ctx, await ctx.services.app.structuredProperties.upsertValues(ctx.auth, input)),
      removeStructuredProperties: async (_r: unknown, { input }: Input<RemoveInput>, ctx: GraphQLContext) =>
        assetProperties(ctx, await ctx.services.app.structuredProperties.removeValues(ctx.auth, input)),
    },
  };
}
