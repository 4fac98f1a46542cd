import type { ActorDirectory, ActorState } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import { TtlCache } from './ttl-cache.js';

const USER_ASPECTS = [
  'corpUserKey',
  'status',
  'corpUserStatus',
  'groupMembership',
  'nativeGroupMembership',
  'roleMembership',
  'corpUserInfo',
] as const;

/**
 * Users as authentication and authorization see them, read from the aspect store (the primary copy,
 * so a suspension is seen as soon as it is stored) and cached per actor until a change log of that
 * user or one of its groups invalidates it, or `ttlMs` passes.
 */
export class StoreActorDirectory implements ActorDirectory {
  private readonly cache: TtlCache<Promise<ActorState>>;
  /** Which cached actors a group's roles went into, so a group change invalidates its members. */
  private readonly membersOfGroup = new Map<string, Set<string>>();

  constructor(
    private readonly store: AspectStore,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  actorState(actorUrn: string): Promise<ActorState> {
    const cached = this.cache.get(actorUrn);
    if (cached !== undefined) return cached;
    const loading = this.load(actorUrn);
    this.cache.set(actorUrn, loading);
    // A failed read is not remembered: the next request reads again.
    loading.catch(() => this.cache.delete(actorUrn));
    return loading;
  }

  invalidate(urn: string): void {
    this.cache.delete(urn);
    const members = this.membersOfGroup.get(urn);
    if (members === undefined) return;
    this.membersOfGroup.delete(urn);
    for (const member of members) this.cache.delete(member);
  }

  private async load(actorUrn: string): Promise<ActorState> {
    const aspects = new Map(
      (await this.store.getLatest(actorUrn, USER_ASPECTS)).map((a) => [a.aspect, a.value]),
    );
    const groups = unique([
      ...urnsIn(aspects.get('groupMembership'), 'groups'),
      ...urnsIn(aspects.get('nativeGroupMembership'), 'nativeGroups'),
    ]);
    const roles = new Set(roleUrns(aspects.get('roleMembership')));
    if (groups.length > 0) {
      const groupAspects = await this.store.getLatestMany(groups, ['roleMembership']);
      for (const group of groups) {
        let members = this.membersOfGroup.get(group);
        if (members === undefined) this.membersOfGroup.set(group, (members = new Set()));
        members.add(actorUrn);
        for (const a of groupAspects.get(group) ?? []) for (const role of roleUrns(a.value)) roles.add(role);
      }
    }
    const status = aspects.get('corpUserStatus') as { status?: unknown } | undefined;
    const removed = (aspects.get('status') as { removed?: unknown } | undefined)?.removed === true;
    const info = aspects.get('corpUserInfo') as { system?: unknown; isSupportUser?: unknown } | undefined;
    return {
      flags: { system: info?.system === true, supportUser: info?.isSupportUser === true },
      exists: aspects.has('corpUserKey'),
      removed,
      suspended: status?.status === 'SUSPENDED',
      groups,
      roles: [...roles],
    };
  }
}

function urnsIn(value: Readonly<Record<string, unknown>> | undefined, field: string): string[] {
  const list = value?.[field];
  return Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string') : [];
}

function roleUrns(value: Readonly<Record<string, unknown>> | undefined): string[] {
  return urnsIn(value, 'roles');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
