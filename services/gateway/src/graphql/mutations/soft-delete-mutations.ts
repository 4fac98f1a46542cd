import type { GraphQLContext } from '../context.js';

/** Soft deletion of assets (application/soft-deletion.ts decides and writes). */
export const softDeleteMutationSchema = `
input BatchUpdateSoftDeletedInput { urns: [String!]! deleted: Boolean! }

extend type Mutation {
  batchUpdateSoftDeleted(input: BatchUpdateSoftDeletedInput!): Boolean
}
`;

export function softDeleteMutationResolvers() {
  return {
    Mutation: {
      batchUpdateSoftDeleted: async (
        _r: unknown,
        { input }: { input: { urns: string[]; deleted: boolean } },
        ctx: GraphQLContext,
      ) => {
        await ctx.services.app.softDeletion.setSoftDeleted(ctx.auth, input.urns, input.deleted);
        return true;
      },
    },
  };
}
