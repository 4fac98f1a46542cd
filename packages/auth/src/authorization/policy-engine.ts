import type { Logger } from '@catalog/runtime';
import type {
  ActorDirectory,
  AuthorizationRequest,
  Authorizer,
  PolicySource,
  ResourceResolver,
} from '../types.js';
import { ENTITY_READ_PRIVILEGES } from './api-privileges.js';
import type { CompiledPolicy } from './compiled-policy.js';
import { DecisionScope } from './decision-scope.js';
import { PolicyCache } from './policy-cache.js';
import { API_PRIVILEGES, PLATFORM_PRIVILEGES } from './privileges.js';

/** The system client's actor with the default client id: allowed everything, without evaluating any policy. */
export const SYSTEM_ACTOR_URN = 'urn:li:corpuser:__datahub_system';

/**
 * What the built-in "View Self" policy grants every actor on its own urn: the ENTITY READ group, which
 * (as in the ecosystem) includes EDIT_ENTITY and DELETE_ENTITY. Users and groups are still protected
 * from self-service writes because their entity types gate UPDATE and DELETE by identity privileges
 * (see `entityOperationPrivileges`), not by EDIT_ENTITY.
 */
export const VIEW_SELF_PRIVILEGES: readonly string[] = ENTITY_READ_PRIVILEGES;

export interface PolicyEngineDeps {
  readonly policies: PolicySource;
  readonly actors: ActorDirectory;
  readonly resources: ResourceResolver;
  /** How stale policies written elsewhere may be (POLICY_CACHE_REFRESH_INTERVAL_SECONDS). */
  readonly refreshIntervalMs: number;
  readonly now?: () => number;
  readonly logger?: Logger;
  /** The system client's actor when its client id is not the default one. */
  readonly systemActorUrn?: string;
}

/**
 * Decides authorization from the stored policies: a request is allowed when any ACTIVE policy lists one
 * of its privileges and matches both its actor and its resource.
 */
export class PolicyEngine implements Authorizer {
  private readonly cache: PolicyCache;
  private readonly actors: ActorDirectory;
  private readonly resources: ResourceResolver;
  private readonly systemActorUrn: string;

  constructor(deps: PolicyEngineDeps) {
    this.actors = deps.actors;
    this.resources = deps.resources;
    this.systemActorUrn = deps.systemActorUrn ?? SYSTEM_ACTOR_URN;
    this.cache = new PolicyCache(deps.policies, deps.refreshIntervalMs, deps.now ?? Date.now, deps.logger);
  }

  async isAllowed(request: AuthorizationRequest): Promise<boolean> {
    if (request.actorUrn === this.systemActorUrn) return true;
    if (grantsViewSelf(request)) return true;
    const candidates = (await this.cache.get()).grantingAny(request.privileges);
    if (candidates.length === 0) return false;

    const scope = new DecisionScope(this.actors, this.resources, request);
    // First the policies that can decide without reading the resource, so that an actor granted by an
    // unfiltered (or type/urn-filtered) policy costs no resource read; the rest wait for a second pass.
    const needFacts: { policy: CompiledPolicy; actorMatched: boolean }[] = [];
    for (const policy of candidates) {
      const actorMatched = await scope.actorMatches(policy.actors, policy.needsActorState);
      if (actorMatched) {
        if (policy.scope.kind === 'any' || !policy.scope.needsFacts) {
          if (await scope.inScope(policy)) return true;
        } else {
          needFacts.push({ policy, actorMatched });
        }
      } else if (policy.actors.resourceOwners && scope.resourceUrn !== undefined) {
        needFacts.push({ policy, actorMatched });
      }
    }
    for (const { policy, actorMatched } of needFacts) {
      // The resource scope first: a resource out of scope settles it before any ownership lookup.
      if (!(await scope.inScope(policy))) continue;
      if (actorMatched || (await scope.ownerMatches(policy.actors))) return true;
    }
    return false;
  }

  /**
   * The privileges the actor holds without naming a resource: those of matching ACTIVE policies that
   * apply to no particular resource (PLATFORM ones, and METADATA ones without a resource filter), which
   * is exactly what `isAllowed` grants for a request without a resource.
   */
  async platformPrivileges(actorUrn: string): Promise<ReadonlySet<string>> {
    if (actorUrn === this.systemActorUrn) return new Set([...PLATFORM_PRIVILEGES, ...API_PRIVILEGES]);
    const { resourceFree } = await this.cache.get();
    const scope = new DecisionScope(this.actors, this.resources, { actorUrn });
    const held = new Set<string>();
    for (const policy of resourceFree) {
      if (await scope.actorMatches(policy.actors, policy.needsActorState)) {
        for (const privilege of policy.privileges) held.add(privilege);
      }
    }
    return held;
  }

  invalidatePolicies(): void {
    this.cache.invalidate();
  }

  /** Actor facts are cached by the ActorDirectory, which the gateway invalidates; nothing is kept here. */
  invalidateActor(_actorUrn: string): void {}

  /** Nothing to release (policies refresh lazily, without a timer); kept so a root can close every authorizer alike. */
  close(): void {}
}

/** The built-in "View Self" policy: every actor may read its own entity. */
function grantsViewSelf(request: AuthorizationRequest): boolean {
  return (
    request.resourceUrn === request.actorUrn &&
    request.privileges.some((privilege) => VIEW_SELF_PRIVILEGES.includes(privilege))
  );
}
