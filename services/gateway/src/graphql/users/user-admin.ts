import type { EntityPage } from '../../application/users.js';
import type { UserProfileInput } from '../../application/user-profile-edits.js';
import type { GraphQLContext } from '../context.js';
import { keyOf, type EntityRef } from '../entities/entity-ref.js';
import { pageOf } from '../list-page.js';

/** User, group and role administration (entity.graphql), as the ecosystem's UI and SDK call it. */
export const userAdminSchema = `
enum CorpUserStatus { ACTIVE SUSPENDED }

input ListUsersInput { start: Int count: Int query: String }
type ListUsersResult { start: Int! count: Int! total: Int! users: [CorpUser!]! }
input ListGroupsInput { start: Int count: Int query: String }
type ListGroupsResult { start: Int! count: Int! total: Int! groups: [CorpGroup!]! }
input ListRolesInput { start: Int count: Int query: String }
type ListRolesResult { start: Int! count: Int! total: Int! roles: [DataHubRole!]! }
input AddGroupMembersInput { groupUrn: String! userUrns: [String!]! }
input RemoveGroupMembersInput { groupUrn: String! userUrns: [String!]! }
input BatchAssignRoleInput { roleUrn: String actors: [String!]! }
input CorpUserUpdateInput {
  displayName: String
  title: String
  aboutMe: String
  teams: [String!]
  skills: [String!]
  pictureLink: String
  slack: String
  phone: String
  email: String
  platformUrns: [String!]
  personaUrn: String
}

extend type DataHubRole { name: String! description: String! }

extend type Query {
  listUsers(input: ListUsersInput!): ListUsersResult
  listGroups(input: ListGroupsInput!): ListGroupsResult
  listRoles(input: ListRolesInput!): ListRolesResult
}

extend type Mutation {
  updateUserStatus(urn: String!, status: CorpUserStatus!): String
  updateCorpUserProperties(urn: String!, input: CorpUserUpdateInput!): CorpUser
  removeUser(urn: String!): Boolean
  removeGroup(urn: String!): Boolean
  addGroupMembers(input: AddGroupMembersInput!): Boolean
  removeGroupMembers(input: RemoveGroupMembersInput!): Boolean
  batchAssignRole(input: BatchAssignRoleInput!): Boolean
}
`;

interface ListInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
}

interface MembersInput {
  readonly groupUrn: string;
  readonly userUrns: readonly string[];
}

type Json = Readonly<Record<string, unknown>>;

/** A listing's request: its page checked (a 400 for a bad one) and its query. */
function listRequest(input: ListInput) {
  return { ...pageOf(input), query: input.query ?? null };
}

/** A listing's answer: the page asked for, with as many entities as it holds. */
function listResult<K extends string>(input: ListInput, page: EntityPage, key: K) {
  const { start } = pageOf(input);
  return { start, count: page.entities.length, total: page.total, [key]: page.entities } as {
    start: number;
    count: number;
    total: number;
  } & Record<K, readonly EntityRef[]>;
}

async function roleInfo(ctx: GraphQLContext, ref: EntityRef): Promise<Json | undefined> {
  return ctx.entities.aspect<Json>(ref.urn, 'dataHubRoleInfo');
}

export function userAdminResolvers(): Record<string, Record<string, unknown>> {
  const users = (ctx: GraphQLContext) => ctx.services.app.users;
  return {
    DataHubRole: {
      name: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const name = (await roleInfo(ctx, ref))?.['name'];
        return typeof name === 'string' ? name : String(keyOf(ref)['id'] ?? ref.urn);
      },
      description: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const description = (await roleInfo(ctx, ref))?.['description'];
        return typeof description === 'string' ? description : '';
      },
    },
    Query: {
      listUsers: async (_r: unknown, { input }: { input: ListInput }, ctx: GraphQLContext) =>
        listResult(input, await users(ctx).listUsers(ctx.auth, listRequest(input)), 'users'),
      listGroups: async (_r: unknown, { input }: { input: ListInput }, ctx: GraphQLContext) =>
        listResult(input, await users(ctx).listGroups(ctx.auth, listRequest(input)), 'groups'),
      listRoles: async (_r: unknown, { input }: { input: ListInput }, ctx: GraphQLContext) =>
        listResult(input, await users(ctx).listRoles(ctx.auth, listRequest(input)), 'roles'),
    },
    Mutation: {
      updateUserStatus: (
        _r: unknown,
        { urn, status }: { urn: string; status: string },
        ctx: GraphQLContext,
      ) => users(ctx).setStatus(ctx.auth, urn, status),
      updateCorpUserProperties: async (
        _r: unknown,
        { urn, input }: { urn: string; input: UserProfileInput },
        ctx: GraphQLContext,
      ): Promise<EntityRef> => ({
        urn: await ctx.services.app.userProfiles.update(ctx.auth, urn, input),
        entity: 'corpuser',
      }),
      removeUser: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await users(ctx).removeUser(ctx.auth, urn);
        return true;
      },
      removeGroup: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await users(ctx).removeGroup(ctx.auth, urn);
        return true;
      },
      addGroupMembers: async (_r: unknown, { input }: { input: MembersInput }, ctx: GraphQLContext) => {
        await users(ctx).addGroupMembers(ctx.auth, input.groupUrn, input.userUrns);
        return true;
      },
      removeGroupMembers: async (_r: unknown, { input }: { input: MembersInput }, ctx: GraphQLContext) => {
        await users(ctx).removeGroupMembers(ctx.auth, input.groupUrn, input.userUrns);
        return true;
      },
      batchAssignRole: async (
        _r: unknown,
        { input }: { input: { roleUrn?: string | null; actors: readonly string[] } },
        ctx: GraphQLContext,
      ) => {
        await users(ctx).assignRole(ctx.auth, input.roleUrn ?? null, input.actors);
        return true;
      },
    },
  };
}

/**
 * CorpUser.status as the ecosystem types it (enum CorpUserStatus, from the corpUserStatus aspect). Not
 * registered here: the entity schema gives every type `status: Status` (the soft-delete aspect), so
 * CorpUser needs its SDL changed first (see the report).
 */
export async function corpUserStatusField(
  ref: EntityRef,
  _args: unknown,
  ctx: GraphQLContext,
): Promise<string | null> {
  const status = (await ctx.entities.aspect<Json>(ref.urn, 'corpUserStatus'))?.['status'];
  return status === 'ACTIVE' || status === 'SUSPENDED' ? status : null;
}
