import type { GraphQLContext } from '../context.js';

/** Invite tokens and password reset tokens (entity.graphql), as the ecosystem's UI and SDK call them. */
export const nativeUserSchema = `
input CreateInviteTokenInput { roleUrn: String }
input GetInviteTokenInput { roleUrn: String }
input CreateNativeUserResetTokenInput { userUrn: String! }
input AcceptRoleInput { inviteToken: String! }
type InviteToken { inviteToken: String! }
type ResetToken { resetToken: String! }

extend type Query {
  getInviteToken(input: GetInviteTokenInput!): InviteToken
}

extend type Mutation {
  createInviteToken(input: CreateInviteTokenInput!): InviteToken
  createNativeUserResetToken(input: CreateNativeUserResetTokenInput!): ResetToken
  acceptRole(input: AcceptRoleInput!): Boolean
}
`;

type Args<T> = { readonly input: T };

export function nativeUserResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      getInviteToken: async (
        _r: unknown,
        { input }: Args<{ roleUrn?: string | null }>,
        ctx: GraphQLContext,
      ) => ({ inviteToken: await ctx.services.app.userCredentials.inviteToken(ctx.auth, input.roleUrn) }),
    },
    Mutation: {
      createInviteToken: async (
        _r: unknown,
        { input }: Args<{ roleUrn?: string | null }>,
        ctx: GraphQLContext,
      ) => ({ inviteToken: await ctx.services.app.userCredentials.newInviteToken(ctx.auth, input.roleUrn) }),
      acceptRole: (_r: unknown, { input }: Args<{ inviteToken: string }>, ctx: GraphQLContext) =>
        ctx.services.app.roleInvitations.accept(ctx.auth, input.inviteToken),
      createNativeUserResetToken: async (
        _r: unknown,
        { input }: Args<{ userUrn: string }>,
        ctx: GraphQLContext,
      ) => ({ resetToken: await ctx.services.app.userCredentials.resetToken(ctx.auth, input.userUrn) }),
    },
  };
}
