import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, formatUrn, NotFoundError, ValidationError } from '@catalog/model';
import type { Filter, SortCriterion } from '@catalog/search';
import type { EntitySearch } from './entity-search.js';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf, UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { pointer, writeDecided, type AspectChange } from './aspect-changes.js';
import { newIdOf, requireUrnOf, type NamedEntity } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const MANAGE_USERS_AND_GROUPS = ['MANAGE_USERS_AND_GROUPS'] as const;
const CREATE_GROUPS = ['CREATE_GROUPS', 'CREATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS'] as const;
/** On the group itself (the ecosystem's canEditGroupMembers), besides MANAGE_USERS_AND_GROUPS. */
const EDIT_GROUP_MEMBERS = ['EDIT_GROUP_MEMBERS', 'EDIT_ENTITY'] as const;
/** Assigning a role grants its policies, so it takes what writing those policies takes. */
const MANAGE_POLICIES = ['MANAGE_POLICIES'] as const;
const ASSIGN_ROLES_DENIED =
  'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.';
const SERVICE_ACCOUNT = 'SERVICE_ACCOUNT';

type Json = Readonly<Record<string, unknown>>;

/** A page of a listing: the entities in order and how many match in all. */
export interface EntityPage {
  readonly total: number;
  readonly entities: readonly NamedEntity[];
}

/** What a listing asks for. */
export interface ListRequest {
  readonly start: number;
  readonly count: number;
  readonly query?: string | null;
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

const NON_SERVICE_ACCOUNTS: Filter = {
  or: [{ and: [{ field: 'typeNames', values: [SERVICE_ACCOUNT], condition: 'EQUAL', negated: true }] }],
};

function listed(list: unknown, urn: string): boolean {
  return Array.isArray(list) && list.includes(urn);
}

/**
 * User, group and role administration. Managing users and groups (status, removal, group creation and
 * listing) takes MANAGE_USERS_AND_GROUPS; a group's members change with that or EDIT_GROUP_MEMBERS on the
 * group, and adding oneself takes MANAGE_USERS_AND_GROUPS (AccessPolicy.requireGroupGrant); assigning roles takes MANAGE_POLICIES (a role grants its policies). Every change drops what
 * authentication and authorization remember of the actors it touches.
 */
export class UserAdmin {
  constructor(
    private readonly auth: Pick<GatewayAuth, 'actors' | 'authorizer'>,
    private readonly search: EntitySearch,
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** Suspends or reactivates an existing user; returns its urn. */
  async setStatus(ctx: RequestContext, urn: string, status: string): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_USERS_AND_GROUPS);
    const user = requireUrnOf(urn, ['corpuser'], 'urn');
    // Writing a status would create the user: only existing users have one.
    if (!(await this.stored.exists(user.urn))) throw new NotFoundError(`User ${user.urn} does not exist`);
    const value = userStatusOf(status, ctx.authentication.actorUrn, Date.now());
    await this.write(ctx, [{ urn: user.urn, entityType: 'corpuser', aspect: 'corpUserStatus', value }]);
    this.forget(user.urn);
    return user.urn;
  }

  async removeUser(ctx: RequestContext, urn: string): Promise<void> {
    await requireAnyOf(this.policy, ctx, MANAGE_USERS_AND_GROUPS);
    const user = requireUrnOf(urn, ['corpuser'], 'urn');
    await this.write(ctx, [
      { urn: user.urn, entityType: 'corpuser', aspect: 'corpUserKey', changeType: 'DELETE' },
    ]);
    this.forget(user.urn);
  }

  async removeGroup(ctx: RequestContext, urn: string): Promise<void> {
    await requireAnyOf(this.policy, ctx, MANAGE_USERS_AND_GROUPS);
    const group = requireUrnOf(urn, ['corpGroup'], 'urn');
    await this.write(ctx, [
      { urn: group.urn, entityType: 'corpGroup', aspect: 'corpGroupKey', changeType: 'DELETE' },
    ]);
    // Forgetting a group drops its cached members too: their roles through it are gone.
    this.forget(group.urn);
  }

  /** Creates a group (its info); returns its urn. */
  async createGroup(
    ctx: RequestContext,
    input: { readonly id?: string | null; readonly name: string; readonly description?: string | null },
  ): Promise<string> {
    await requireAnyOf(this.policy, ctx, CREATE_GROUPS);
    const urn = formatUrn('corpGroup', [newIdOf(input.id)]);
    const value = {
      displayName: input.name,
      description: input.description,
      admins: [],
      members: [],
      groups: [],
    };
    await this.write(ctx, [{ urn, entityType: 'corpGroup', aspect: 'corpGroupInfo', value }]);
    return urn;
  }

  /** Adds existing users to a group as native members (nativeGroupMembership, as the ecosystem adds them). */
  async addGroupMembers(ctx: RequestContext, groupUrn: string, userUrns: readonly string[]): Promise<void> {
    const group = await this.editableGroup(ctx, groupUrn, 'added to');
    const users = userUrns.map((u, i) => requireUrnOf(u, ['corpuser'], `userUrns[${i}]`));
    const missing = await this.stored.missing(users.map((u) => u.urn));
    if (missing.length > 0)
      throw new ValidationError(
        `Failed to add members to group: these users do not exist: ${missing.join(', ')}`,
      );
    // Joining a group is a grant (its roles and policies): the rule of every membership write holds.
    for (const user of users) {
      const native = (await this.stored.values(user.urn)).get('nativeGroupMembership');
      if (!listed(native?.['nativeGroups'], group.urn))
        await this.policy.requireGroupGrant(ctx, user.urn, [group.urn]);
    }
    await this.write(
      ctx,
      users.map((user) => membershipPatch(user.urn, 'nativeGroupMembership', group.urn, true)),
    );
    for (const user of users) this.forget(user.urn);
  }

  /** Removes users from a group, whether they are members natively or by an ingested groupMembership. */
  async removeGroupMembers(
    ctx: RequestContext,
    groupUrn: string,
    userUrns: readonly string[],
  ): Promise<void> {
    const group = await this.editableGroup(ctx, groupUrn, 'removed from');
    const users = userUrns.map((u, i) => requireUrnOf(u, ['corpuser'], `userUrns[${i}]`));
    const changes: AspectChange[] = [];
    for (const user of users) {
      const values = await this.stored.values(user.urn);
      if (listed(values.get('nativeGroupMembership')?.['nativeGroups'], group.urn))
        changes.push(membershipPatch(user.urn, 'nativeGroupMembership', group.urn, false));
      if (listed(values.get('groupMembership')?.['groups'], group.urn))
        changes.push(membershipPatch(user.urn, 'groupMembership', group.urn, false));
    }
    if (changes.length > 0) await this.write(ctx, changes);
    for (const user of users) this.forget(user.urn);
  }

  /**
   * Gives users and groups one role (none when `roleUrn` is null). As in the ecosystem, actors that do
   * not exist are skipped rather than created.
   */
  async assignRole(ctx: RequestContext, roleUrn: string | null, actorUrns: readonly string[]): Promise<void> {
    if (!(await this.policy.holds(ctx, MANAGE_POLICIES))) throw new ForbiddenError(ASSIGN_ROLES_DENIED);
    if (roleUrn !== null) {
      requireUrnOf(roleUrn, ['dataHubRole'], 'roleUrn');
      if (!(await this.stored.exists(roleUrn))) throw new ValidationError(`Role ${roleUrn} does not exist`);
    }
    const actors = actorUrns.map((a, i) => requireUrnOf(a, ['corpuser', 'corpGroup'], `actors[${i}]`));
    const missing = new Set(await this.stored.missing(actors.map((a) => a.urn)));
    const present = actors.filter((a) => !missing.has(a.urn));
    if (present.length > 0)
      await this.write(
        ctx,
        present.map((actor) => ({
          urn: actor.urn,
          entityType: actor.entity,
          aspect: 'roleMembership',
          value: roleMembershipOf(roleUrn),
        })),
      );
    for (const actor of present) this.forget(actor.urn);
  }

  /** A page of users, service accounts left out. Any authenticated user may list users. */
  listUsers(ctx: RequestContext, request: ListRequest): Promise<EntityPage> {
    return this.page(ctx, 'corpuser', request, { filter: NON_SERVICE_ACCOUNTS });
  }

  /** A page of groups, newest first: for who manages users and groups. */
  async listGroups(ctx: RequestContext, request: ListRequest): Promise<EntityPage> {
    await requireAnyOf(this.policy, ctx, MANAGE_USERS_AND_GROUPS);
    return this.page(ctx, 'corpGroup', request, { sort: [{ field: 'createdTime', order: 'DESCENDING' }] });
  }

  /** A page of roles by name. Any authenticated user may list roles (the ecosystem checks no privilege). */
  listRoles(ctx: RequestContext, request: ListRequest): Promise<EntityPage> {
    return this.page(ctx, 'dataHubRole', request, { sort: [{ field: 'name', order: 'ASCENDING' }] });
  }

  /**
   * The group whose members change, checked as the ecosystem checks it: the caller may manage users and
   * groups or edit this group's members; the group exists; and it is not one an identity provider owns.
   */
  private async editableGroup(ctx: RequestContext, groupUrn: string, verb: 'added to' | 'removed from') {
    const group = requireUrnOf(groupUrn, ['corpGroup'], 'groupUrn');
    const allowed =
      (await this.policy.holds(ctx, MANAGE_USERS_AND_GROUPS)) ||
      (await this.policy.holds(ctx, EDIT_GROUP_MEMBERS, { resourceUrn: group.urn }));
    if (!allowed) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    const values = await this.stored.values(group.urn);
    if (values.size === 0)
      throw new NotFoundError(`Failed to change the members of group ${group.urn}: the group does not exist`);
    if ((values.get('origin') as Json | undefined)?.['type'] === 'EXTERNAL')
      throw new ValidationError(
        `Group ${group.urn} was ingested from an external provider and cannot have members manually ${verb} it`,
      );
    return group;
  }

  /**
   * One page of an entity type from the search index, as the ecosystem's list resolvers read them, with
   * the entities the actor may not read left out.
   */
  private async page(
    ctx: RequestContext,
    entity: string,
    request: ListRequest,
    options: { filter?: Filter; sort?: readonly SortCriterion[] },
  ): Promise<EntityPage> {
    const query = (request.query ?? '').trim();
    const response = await this.search.search(ctx, {
      entityTypes: [entity],
      input: query === '' ? '*' : query,
      start: request.start,
      count: request.count,
      ...(options.filter === undefined ? {} : { filter: options.filter }),
      ...(options.sort === undefined ? {} : { sort: options.sort }),
    });
    return {
      total: response.total,
      entities: response.hits.map((h) => ({ urn: h.urn, entity: h.entityType })),
    };
  }

  private write(ctx: RequestContext, changes: readonly AspectChange[]): Promise<void> {
    return writeDecided(this.proposals, ctx, changes);
  }

  /** Drops what authentication and authorization remember about an actor (or a group's members). */
  private forget(urn: string): void {
    this.auth.actors.invalidate(urn);
    this.auth.authorizer.invalidateActor(urn);
  }
}
