import { ForbiddenError, isUrn, NotFoundError, parseUrn, ValidationError } from '@catalog/model';
import type { Filter, SortCriterion } from '../../application/entity-search.js';
import { isAuthorized, requirePrivilege, UNAUTHORIZED_MESSAGE } from '../authorization.js';
import type { GraphQLContext } from '../context.js';
import { keyOf, type EntityRef } from '../entities/entity-ref.js';
import { pointer } from '../mutations/label-mutations.js';
import { writeAspects, type AspectChange } from '../mutations/write-proposals.js';
import { pageOf } from '../list-page.js';

const MANAGE_USERS_AND_GROUPS = ['MANAGE_USERS_AND_GROUPS'] as const;
/** On the group itself (the ecosystem's canEditGroupMembers), besides MANAGE_USERS_AND_GROUPS. */
const EDIT_GROUP_MEMBERS = ['EDIT_GROUP_MEMBERS', 'EDIT_ENTITY'] as const;
/** Assigning a role grants its policies, so it takes what writing those policies takes. */
const MANAGE_POLICIES = ['MANAGE_POLICIES'] as const;
const ASSIGN_ROLES_DENIED =
  'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.';
const SERVICE_ACCOUNT = 'SERVICE_ACCOUNT';

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

extend type DataHubRole { name: String! description: String! }

extend type Query {
  listUsers(input: ListUsersInput!): ListUsersResult
  listGroups(input: ListGroupsInput!): ListGroupsResult
  listRoles(input: ListRolesInput!): ListRolesResult
}

extend type Mutation {
  updateUserStatus(urn: String!, status: CorpUserStatus!): String
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

/** A urn a client gave, which must name an entity of one of these types. */
export function requireUrnOf(urn: string, entities: readonly string[], field: string): EntityRef {
  const entity = isUrn(urn) ? parseUrn(urn).entityType : undefined;
  if (entity === undefined || !entities.includes(entity))
    throw new ValidationError(`${field} must be a ${entities.join(' or ')} urn, got ${JSON.stringify(urn)}`);
  return { urn, entity };
}

async function exists(ctx: GraphQLContext, urn: string): Promise<boolean> {
  return (await ctx.entities.load(urn)).size > 0;
}

/** Drops what authentication and authorization remember about an actor (or a group's members). */
function invalidate(ctx: GraphQLContext, urn: string): void {
  ctx.services.auth.actors.invalidate(urn);
  ctx.services.auth.authorizer.invalidateActor(urn);
}

/** The `corpUserStatus` a status change writes. */
export function userStatusOf(status: string, actor: string, now: number): Record<string, unknown> {
  return { status, lastModified: { time: now, actor } };
}

/** The `roleMembership` of a role assignment: the one role, or none when the role is null. */
export function roleMembershipOf(roleUrn: string | null | undefined): Record<string, unknown> {
  return { roles: roleUrn === null || roleUrn === undefined ? [] : [roleUrn] };
}

/**
 * A PATCH adding or removing a group in a membership list of a user (`nativeGroupMembership.nativeGroups`
 * or `groupMembership.groups`): applied by persistence to the latest value, so concurrent changes of one
 * user's groups all stay.
 */
export function membershipPatch(
  userUrn: string,
  aspect: 'nativeGroupMembership' | 'groupMembership',
  groupUrn: string,
  add: boolean,
): AspectChange {
  const list = aspect === 'nativeGroupMembership' ? 'nativeGroups' : 'groups';
  const path = `/${list}/${pointer(groupUrn)}`;
  return {
    urn: userUrn,
    entityType: 'corpuser',
    aspect,
    changeType: 'PATCH',
    value: {
      patch: [add ? { op: 'add', path, value: groupUrn } : { op: 'remove', path }],
      arrayPrimaryKeys: { [list]: [] },
    },
  };
}

/**
 * The group whose members change, checked as the ecosystem checks it: the caller may manage users and
 * groups or edit this group's members; the group exists; and it is not one an identity provider owns.
 */
async function editableGroup(ctx: GraphQLContext, groupUrn: string, verb: 'added to' | 'removed from') {
  const group = requireUrnOf(groupUrn, ['corpGroup'], 'groupUrn');
  const allowed =
    (await isAuthorized(ctx, MANAGE_USERS_AND_GROUPS)) ||
    (await isAuthorized(ctx, EDIT_GROUP_MEMBERS, group.urn));
  if (!allowed) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
  if (!(await exists(ctx, group.urn)))
    throw new NotFoundError(`Failed to change the members of group ${group.urn}: the group does not exist`);
  const origin = await ctx.entities.aspect<Json>(group.urn, 'origin');
  if (origin?.['type'] === 'EXTERNAL')
    throw new ValidationError(
      `Group ${group.urn} was ingested from an external provider and cannot have members manually ${verb} it`,
    );
  return group;
}

const NON_SERVICE_ACCOUNTS: Filter = {
  or: [{ and: [{ field: 'typeNames', values: [SERVICE_ACCOUNT], condition: 'EQUAL', negated: true }] }],
};

/**
 * One page of an entity type from the search index, as the ecosystem's list resolvers read them (the
 * entities the actor may not read left out).
 */
async function listPage(
  ctx: GraphQLContext,
  entity: string,
  input: ListInput,
  options: { filter?: Filter; sort?: readonly SortCriterion[] } = {},
): Promise<{ start: number; count: number; total: number; refs: EntityRef[] }> {
  const { start, count } = pageOf(input);
  const page = await ctx.services.app.lists.page(ctx.auth, {
    entityType: entity,
    query: input.query ?? '',
    start,
    count,
    ...options,
  });
  const refs = page.urns.map((urn) => ({ urn, entity }));
  return { start, count: refs.length, total: page.total, refs };
}

async function roleInfo(ctx: GraphQLContext, ref: EntityRef): Promise<Json | undefined> {
  return ctx.entities.aspect<Json>(ref.urn, 'dataHubRoleInfo');
}

export function userAdminResolvers(): Record<string, Record<string, unknown>> {
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
      // Any authenticated user may list users and roles (the ecosystem checks no privilege there).
      listUsers: async (_r: unknown, { input }: { input: ListInput }, ctx: GraphQLContext) => {
        const page = await listPage(ctx, 'corpuser', input, { filter: NON_SERVICE_ACCOUNTS });
        return { start: page.start, count: page.count, total: page.total, users: page.refs };
      },
      listGroups: async (_r: unknown, { input }: { input: ListInput }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_USERS_AND_GROUPS);
        const page = await listPage(ctx, 'corpGroup', input, {
          sort: [{ field: 'createdTime', order: 'DESCENDING' }],
        });
        return { start: page.start, count: page.count, total: page.total, groups: page.refs };
      },
      listRoles: async (_r: unknown, { input }: { input: ListInput }, ctx: GraphQLContext) => {
        const page = await listPage(ctx, 'dataHubRole', input, {
          sort: [{ field: 'name', order: 'ASCENDING' }],
        });
        return { start: page.start, count: page.count, total: page.total, roles: page.refs };
      },
    },
    Mutation: {
      updateUserStatus: async (
        _r: unknown,
        { urn, status }: { urn: string; status: string },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_USERS_AND_GROUPS);
        const user = requireUrnOf(urn, ['corpuser'], 'urn');
        // Writing a status would create the user: only existing users have one.
        if (!(await exists(ctx, user.urn))) throw new NotFoundError(`User ${user.urn} does not exist`);
        await writeAspects(ctx, [
          {
            urn: user.urn,
            entityType: 'corpuser',
            aspect: 'corpUserStatus',
            value: userStatusOf(status, ctx.actor, Date.now()),
          },
        ]);
        invalidate(ctx, user.urn);
        return user.urn;
      },
      removeUser: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_USERS_AND_GROUPS);
        const user = requireUrnOf(urn, ['corpuser'], 'urn');
        await writeAspects(ctx, [
          { urn: user.urn, entityType: 'corpuser', aspect: 'corpUserKey', changeType: 'DELETE' },
        ]);
        invalidate(ctx, user.urn);
        return true;
      },
      removeGroup: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_USERS_AND_GROUPS);
        const group = requireUrnOf(urn, ['corpGroup'], 'urn');
        await writeAspects(ctx, [
          { urn: group.urn, entityType: 'corpGroup', aspect: 'corpGroupKey', changeType: 'DELETE' },
        ]);
        // Invalidating a group drops its cached members too: their roles through it are gone.
        invalidate(ctx, group.urn);
        return true;
      },
      addGroupMembers: async (_r: unknown, { input }: { input: MembersInput }, ctx: GraphQLContext) => {
        const group = await editableGroup(ctx, input.groupUrn, 'added to');
        const users = input.userUrns.map((u, i) => requireUrnOf(u, ['corpuser'], `userUrns[${i}]`));
        const missing: string[] = [];
        for (const user of users) if (!(await exists(ctx, user.urn))) missing.push(user.urn);
        if (missing.length > 0)
          throw new ValidationError(
            `Failed to add members to group: these users do not exist: ${missing.join(', ')}`,
          );
        // Members added here are native members (nativeGroupMembership), as the ecosystem adds them.
        await writeAspects(
          ctx,
          users.map((user) => membershipPatch(user.urn, 'nativeGroupMembership', group.urn, true)),
        );
        for (const user of users) invalidate(ctx, user.urn);
        return true;
      },
      removeGroupMembers: async (_r: unknown, { input }: { input: MembersInput }, ctx: GraphQLContext) => {
        const group = await editableGroup(ctx, input.groupUrn, 'removed from');
        const users = input.userUrns.map((u, i) => requireUrnOf(u, ['corpuser'], `userUrns[${i}]`));
        // A member may be one natively or by an ingested groupMembership: either way it leaves the group.
        const changes: AspectChange[] = [];
        for (const user of users) {
          const native = await ctx.entities.aspect<Json>(user.urn, 'nativeGroupMembership');
          if (listed(native?.['nativeGroups'], group.urn))
            changes.push(membershipPatch(user.urn, 'nativeGroupMembership', group.urn, false));
          const ingested = await ctx.entities.aspect<Json>(user.urn, 'groupMembership');
          if (listed(ingested?.['groups'], group.urn))
            changes.push(membershipPatch(user.urn, 'groupMembership', group.urn, false));
        }
        if (changes.length > 0) await writeAspects(ctx, changes);
        for (const user of users) invalidate(ctx, user.urn);
        return true;
      },
      batchAssignRole: async (
        _r: unknown,
        { input }: { input: { roleUrn?: string | null; actors: readonly string[] } },
        ctx: GraphQLContext,
      ) => {
        if (!(await isAuthorized(ctx, MANAGE_POLICIES))) throw new ForbiddenError(ASSIGN_ROLES_DENIED);
        const roleUrn = input.roleUrn ?? null;
        if (roleUrn !== null) {
          requireUrnOf(roleUrn, ['dataHubRole'], 'roleUrn');
          if (!(await exists(ctx, roleUrn))) throw new ValidationError(`Role ${roleUrn} does not exist`);
        }
        const actors = input.actors.map((a, i) => requireUrnOf(a, ['corpuser', 'corpGroup'], `actors[${i}]`));
        // As in the ecosystem, actors that do not exist are skipped rather than created.
        const present: EntityRef[] = [];
        for (const actor of actors) if (await exists(ctx, actor.urn)) present.push(actor);
        if (present.length > 0)
          await writeAspects(
            ctx,
            present.map((actor) => ({
              urn: actor.urn,
              entityType: actor.entity,
              aspect: 'roleMembership',
              value: roleMembershipOf(roleUrn),
            })),
          );
        for (const actor of present) invalidate(ctx, actor.urn);
        return true;
      },
    },
  };
}

function listed(list: unknown, urn: string): boolean {
  return Array.isArray(list) && list.includes(urn);
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
