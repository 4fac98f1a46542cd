import { ValidationError } from '@catalog/model';
import { requirePrivilege } from '../authorization.js';
import type { GraphQLContext } from '../context.js';

/** The ecosystem's privilege for invite links and password resets. */
const MANAGE_USER_CREDENTIALS = ['MANAGE_USER_CREDENTIALS'] as const;

/** Invite tokens and password reset tokens (entity.graphql), as the ecosystem's UI and SDK call them. */
export const nativeUserSchema = `
input CreateInviteTokenInput { roleUrn: String }
input GetInviteTokenInput { roleUrn: String }
input CreateNativeUserResetTokenInput { userUrn: String! }
type InviteToken { inviteToken: String! }
type ResetToken { resetToken: String! }

extend type Query {
  getInviteToken(input: GetInviteTokenInput!): InviteToken
}

extend type Mutation {
  createInviteToken(input: CreateInviteTokenInput!): InviteToken
  createNativeUserResetToken(input: CreateNativeUserResetTokenInput!): ResetToken
}
`;

type Args<T> = { readonly input: T };

/** A role given as null or not at all is the role-less token. */
function roleOf(input: { readonly roleUrn?: string | null }): string | undefined {
  return input.roleUrn ?? undefined;
}

export function nativeUserResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      getInviteToken: async (
        _r: unknown,
        { input }: Args<{ roleUrn?: string | null }>,
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_USER_CREDENTIALS);
        return { inviteToken: await ctx.services.nativeUsers.getInviteToken(roleOf(input), ctx.actor) };
      },
    },
    Mutation: {
      createInviteToken: async (
        _r: unknown,
        { input }: Args<{ roleUrn?: string | null }>,
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_USER_CREDENTIALS);
        return { inviteToken: await ctx.services.nativeUsers.createInviteToken(roleOf(input), ctx.actor) };
      },
      createNativeUserResetToken: async (
        _r: unknown,
        { input }: Args<{ userUrn: string }>,
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_USER_CREDENTIALS);
        if (!input.userUrn.startsWith('urn:li:corpuser:')) {
          throw new ValidationError(`userUrn must be a corpuser urn, got ${JSON.stringify(input.userUrn)}`);
        }
        return {
          resetToken: await ctx.services.nativeUsers.createResetToken(
            input.userUrn,
            ctx.actor,
            ctx.auth.origin,
          ),
        };
      },
    },
  };
}
