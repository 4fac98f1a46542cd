import type { CreationInput } from '../../application/entity-creation.js';
import type { GraphQLContext } from '../context.js';

/** Creating tags, domains, groups and glossary entities, moving glossary entities, and deleting tags. */
export const mutationSchema = `
input CreateTagInput { id: String name: String! description: String }
input CreateDomainInput { id: String name: String! description: String parentDomain: String }
input CreateGroupInput { id: String name: String! description: String }
input CreateGlossaryEntityInput { id: String name: String! description: String parentNode: String }
input UpdateParentNodeInput { parentNode: String resourceUrn: String! }

type Mutation {
  createTag(input: CreateTagInput!): String
  deleteTag(urn: String!): Boolean
  createDomain(input: CreateDomainInput!): String
  createGroup(input: CreateGroupInput!): String
  createGlossaryTerm(input: CreateGlossaryEntityInput!): String
  createGlossaryNode(input: CreateGlossaryEntityInput!): String
  updateParentNode(input: UpdateParentNodeInput!): Boolean
}
`;

type Args<T> = { readonly input: T };

export function mutationResolvers(): Record<string, Record<string, unknown>> {
  return {
    Mutation: {
      createTag: (_r: unknown, { input }: Args<CreationInput>, ctx: GraphQLContext) =>
        ctx.services.app.entityCreation.createTag(ctx.auth, input),
      deleteTag: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await ctx.services.app.entityCreation.deleteTag(ctx.auth, urn);
        return true;
      },
      createDomain: (
        _r: unknown,
        { input }: Args<CreationInput & { parentDomain?: string | null }>,
        ctx: GraphQLContext,
      ) => ctx.services.app.entityCreation.createDomain(ctx.auth, input),
      createGroup: (_r: unknown, { input }: Args<CreationInput>, ctx: GraphQLContext) =>
        ctx.services.app.users.createGroup(ctx.auth, input),
      createGlossaryTerm: (
        _r: unknown,
        { input }: Args<CreationInput & { parentNode?: string | null }>,
        ctx: GraphQLContext,
      ) => ctx.services.app.entityCreation.createGlossaryTerm(ctx.auth, input),
      createGlossaryNode: (
        _r: unknown,
        { input }: Args<CreationInput & { parentNode?: string | null }>,
        ctx: GraphQLContext,
      ) => ctx.services.app.entityCreation.createGlossaryNode(ctx.auth, input),
      updateParentNode: async (
        _r: unknown,
        { input }: Args<{ resourceUrn: string; parentNode?: string | null }>,
        ctx: GraphQLContext,
      ) => {
        await ctx.services.app.glossaryHierarchy.updateParentNode(ctx.auth, input);
        return true;
      },
    },
  };
}
