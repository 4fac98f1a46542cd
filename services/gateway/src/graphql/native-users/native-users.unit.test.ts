import { buildSchema } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { AccessPolicy } from '../../application/access-policy.js';
import { UNAUTHORIZED_MESSAGE } from '../../application/admin-privileges.js';
import { UserCredentials } from '../../application/user-credentials.js';
import type { GatewayAuth } from '../../auth/gateway-auth.js';
import type { GraphQLContext } from '../context.js';
import { nativeUserResolvers, nativeUserSchema } from './native-users.js';

/** Where the request came from: the reset token's identity event records it. */
const ORIGIN = { sourceIp: '10.0.0.1', userAgent: 'test', eventSource: 'GRAPHQL', traceId: 'a'.repeat(32) };

type Resolver = (root: unknown, args: unknown, ctx: GraphQLContext) => Promise<unknown>;

function contextWith(allowed: boolean) {
  const nativeUsers = {
    getInviteToken: vi.fn(async () => 'existing'),
    createInviteToken: vi.fn(async () => 'fresh'),
    createResetToken: vi.fn(async () => 'reset'),
  };
  const isAllowed = vi.fn(async () => allowed);
  const policy = new AccessPolicy({ authorizer: { isAllowed } } as unknown as GatewayAuth);
  const ctx = {
    actor: 'urn:li:corpuser:admin',
    auth: { authentication: { isSystem: false, actorUrn: 'urn:li:corpuser:admin' }, origin: ORIGIN },
    services: { app: { userCredentials: new UserCredentials(nativeUsers, policy) } },
  } as unknown as GraphQLContext;
  return { ctx, nativeUsers, isAllowed };
}

const resolvers = nativeUserResolvers();
const query = (name: string) => resolvers['Query']![name] as Resolver;
const mutation = (name: string) => resolvers['Mutation']![name] as Resolver;

describe('nativeUserSchema', () => {
  it('is valid SDL with the ecosystem type names', () => {
    const schema = buildSchema(`type Query { _: Boolean } type Mutation { _: Boolean } ${nativeUserSchema}`);
    expect(schema.getQueryType()?.getFields()['getInviteToken']?.type.toString()).toBe('InviteToken');
    const mutations = schema.getMutationType()?.getFields();
    expect(mutations?.['createInviteToken']?.args[0]?.type.toString()).toBe('CreateInviteTokenInput!');
    expect(mutations?.['createNativeUserResetToken']?.type.toString()).toBe('ResetToken');
  });
});

describe('nativeUserResolvers', () => {
  it('every field needs MANAGE_USER_CREDENTIALS', async () => {
    const { ctx, nativeUsers, isAllowed } = contextWith(false);
    await expect(query('getInviteToken')({}, { input: {} }, ctx)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(mutation('createInviteToken')({}, { input: {} }, ctx)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(
      mutation('createNativeUserResetToken')({}, { input: { userUrn: 'urn:li:corpuser:jane' } }, ctx),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(isAllowed).toHaveBeenCalledWith({
      actorUrn: 'urn:li:corpuser:admin',
      privileges: ['MANAGE_USER_CREDENTIALS'],
    });
    expect(nativeUsers.getInviteToken).not.toHaveBeenCalled();
    expect(nativeUsers.createInviteToken).not.toHaveBeenCalled();
    expect(nativeUsers.createResetToken).not.toHaveBeenCalled();
  });

  it('answers with the tokens, acting as the caller', async () => {
    const { ctx, nativeUsers } = contextWith(true);
    expect(await query('getInviteToken')({}, { input: { roleUrn: null } }, ctx)).toEqual({
      inviteToken: 'existing',
    });
    expect(nativeUsers.getInviteToken).toHaveBeenCalledWith(undefined, 'urn:li:corpuser:admin');
    const role = 'urn:li:dataHubRole:Reader';
    expect(await mutation('createInviteToken')({}, { input: { roleUrn: role } }, ctx)).toEqual({
      inviteToken: 'fresh',
    });
    expect(nativeUsers.createInviteToken).toHaveBeenCalledWith(role, 'urn:li:corpuser:admin');
    const input = { userUrn: 'urn:li:corpuser:jane' };
    expect(await mutation('createNativeUserResetToken')({}, { input }, ctx)).toEqual({ resetToken: 'reset' });
    expect(nativeUsers.createResetToken).toHaveBeenCalledWith(
      'urn:li:corpuser:jane',
      'urn:li:corpuser:admin',
      ORIGIN,
    );
  });

  it('refuses a reset token for something that is not a user', async () => {
    const { ctx } = contextWith(true);
    await expect(
      mutation('createNativeUserResetToken')({}, { input: { userUrn: 'urn:li:corpGroup:x' } }, ctx),
    ).rejects.toThrow('userUrn must be a corpuser urn');
  });
});
