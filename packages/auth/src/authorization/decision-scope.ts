import type {
  ActorDirectory,
  ActorState,
  AuthorizationRequest,
  ResourceAttributes,
  ResourceResolver,
} from '../types.js';
import {
  type CompiledActors,
  type CompiledPolicy,
  type CriterionSource,
  criterionHolds,
} from './compiled-policy.js';

/**
 * What one authorization decision knows about its actor and resource. Each fact is read at most once,
 * and only when a policy needs it: most decisions are settled by policies that read nothing.
 * Lives for one decision only, so a later decision always sees current ownership and tags.
 */
export class DecisionScope {
  readonly actorUrn: string;
  readonly resourceUrn: string | undefined;
  readonly resourceType: string | undefined;
  private readonly proposedDomains: readonly string[] | undefined;
  private actorState?: Promise<ActorState>;
  private attributes?: Promise<ResourceAttributes>;
  private resourceGroups?: Promise<readonly string[]>;

  constructor(
    private readonly actors: ActorDirectory,
    private readonly resources: ResourceResolver,
    request: Pick<AuthorizationRequest, 'actorUrn' | 'resourceUrn' | 'resourceType' | 'proposedDomains'>,
  ) {
    this.actorUrn = request.actorUrn;
    this.proposedDomains = request.proposedDomains;
    this.resourceUrn = request.resourceUrn;
    this.resourceType =
      request.resourceUrn === undefined ? request.resourceType : entityTypeOf(request.resourceUrn);
  }

  /** Matches by user, group or role: everything but ownership, which needs the resource. */
  async actorMatches(actors: CompiledActors, needsActorState: boolean): Promise<boolean> {
    if (actors.allUsers || actors.users.has(this.actorUrn)) return true;
    if (!needsActorState) return false;
    const { groups, roles } = await this.actor();
    return (
      (actors.allGroups && groups.length > 0) ||
      groups.some((group) => actors.groups.has(group)) ||
      roles.some((role) => actors.roles.has(role))
    );
  }

  /** Whether the actor, or one of its groups, owns the resource (with an allowed ownership type). */
  async ownerMatches(actors: CompiledActors): Promise<boolean> {
    if (!actors.resourceOwners || this.resourceUrn === undefined) return false;
    const { owners } = await this.resourceAttributes();
    const qualifying = new Set(
      owners
        .filter(
          (o) =>
            actors.ownerTypes === undefined || (o.typeUrn !== undefined && actors.ownerTypes.has(o.typeUrn)),
        )
        .map((o) => o.owner),
    );
    if (qualifying.size === 0) return false;
    if (qualifying.has(this.actorUrn)) return true;
    const { groups } = await this.actor();
    return groups.some((group) => qualifying.has(group));
  }

  /** Whether the request's resource is one the policy covers. */
  async inScope(policy: CompiledPolicy): Promise<boolean> {
    const { scope } = policy;
    if (scope.kind === 'any') return true;
    if (this.resourceUrn === undefined && this.resourceType === undefined) return false;
    for (const criterion of scope.criteria) {
      if (criterion.source === 'unknown') return false;
      if (!criterionHolds(criterion, await this.valuesOf(criterion.source, criterion.field))) return false;
    }
    return true;
  }

  private async valuesOf(source: CriterionSource, field: string): Promise<readonly string[]> {
    if (source === 'type') return this.resourceType === undefined ? [] : [this.resourceType];
    // A type-only request (a search gate) has no urn, and no facts beyond its type.
    if (this.resourceUrn === undefined) return [];
    if (source === 'urn') return [this.resourceUrn];
    if (source === 'groupMembership') return this.groupsOfResource();
    const attributes = await this.resourceAttributes();
    switch (field) {
      case 'OWNER':
        return attributes.owners.map((o) => o.owner);
      case 'DOMAIN':
        return attributes.domains;
      case 'CONTAINER':
        return attributes.containers;
      case 'TAG':
        return attributes.tags;
      case 'GLOSSARY':
        // A term or term group is matched by itself as well as by the terms it carries.
        return this.resourceType === 'glossaryTerm' || this.resourceType === 'glossaryNode'
          ? [this.resourceUrn, ...attributes.glossaryTerms]
          : attributes.glossaryTerms;
      case 'DATA_PLATFORM_INSTANCE':
        return attributes.dataPlatformInstances;
      default:
        return [];
    }
  }

  private actor(): Promise<ActorState> {
    this.actorState ??= this.actors.actorState(this.actorUrn);
    return this.actorState;
  }

  private resourceAttributes(): Promise<ResourceAttributes> {
    // Callers check for a urn first; the empty string never reaches a resolver.
    this.attributes ??= this.resources.resourceAttributes(
      this.resourceUrn ?? '',
      this.proposedDomains === undefined ? undefined : { domains: this.proposedDomains },
    );
    return this.attributes;
  }

  /** GROUP_MEMBERSHIP: the groups a user resource belongs to (other resources belong to none). */
  private groupsOfResource(): Promise<readonly string[]> {
    if (this.resourceUrn === undefined || this.resourceType !== 'corpuser') return Promise.resolve([]);
    const urn = this.resourceUrn;
    this.resourceGroups ??=
      urn === this.actorUrn
        ? this.actor().then((s) => s.groups)
        : this.actors.actorState(urn).then((s) => s.groups);
    return this.resourceGroups;
  }
}

/** `urn:li:<type>:<id>` → `<type>`, without a full parse: only the type is needed here. */
export function entityTypeOf(urn: string): string | undefined {
  const prefix = 'urn:li:';
  if (!urn.startsWith(prefix)) return undefined;
  const end = urn.indexOf(':', prefix.length);
  return end > prefix.length ? urn.slice(prefix.length, end) : undefined;
}
