import type { GraphQLContext } from '../context.js';

/** Accepting a role with an invite token (application/role-acceptance.ts). */
export const roleMutationSchema = `
input AcceptRoleInput { inviteToken: String! }

extend type Mutation {
  acceptRole(input: AcceptRoleInput!): Boolean
}
`;

export function roleMutationResolvers() {
  return {
    Mutation: {
      acceptRole: async (_r: unknown, args: { input: { inviteToken: string } }, ctx: GraphQLContext) => {
        await ctx.services.app.roleAcceptance.accept(ctx.auth, args.input.inviteToken);
        return true;
      },
    },
  };
}
