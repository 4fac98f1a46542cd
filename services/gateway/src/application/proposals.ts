import { entityOperationPrivileges, manageRequires, type RequestContext } from '@catalog/auth';
import { ForbiddenError, type CheckedProposal } from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { unlessUnavailable } from '../auth/auth-unavailable.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { entityTypeOfUrn, type AccessPolicy } from './access-policy.js';
import type { ApiThrottle } from './api-throttle.js';
import { AspectWriteRules } from './aspect-write-rules.js';
import { addedGroups, isGroupMembershipAspect } from './group-membership-grants.js';

/**
 * The platform privilege a write of a restricted aspect needs besides the entity's edit privileges,
 * whatever REST_API_AUTHORIZATION_ENABLED says: whoever may set a user's password hash may take over
 * the account, so corpUserCredentials needs what minting a reset token needs. A restricted aspect
 * without an entry here is written by the system actor only.
 */
const RESTRICTED_WRITE_PRIVILEGES: Readonly<Record<string, readonly string[]>> = {
  corpUserCredentials: ['MANAGE_USER_CREDENTIALS'],
  inviteToken: ['MANAGE_USER_CREDENTIALS'],
  dataHubSecretValue: ['MANAGE_SECRETS'],
  dataHubConnectionDetails: ['MANAGE_CONNECTIONS'],
  webhookSecret: ['MANAGE_GLOBAL_SETTINGS'],
};

const MANAGE_POLICIES = ['MANAGE_POLICIES'];
/**
 * The domains each entity's `domains` proposals of a batch give it (the last whole value of the batch
 * wins; patches and deletes give none to decide with).
 */
function proposedDomainsOf(proposals: readonly CheckedProposal[]): Map<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  for (const proposal of proposals) {
    if (
      proposal.aspect.name !== 'domains' ||
      proposal.changeType === 'DELETE' ||
      proposal.patch !== undefined
    )
      continue;
    const value = proposal.value as { domains?: unknown; domainAssociations?: unknown } | undefined;
    const domains = Array.isArray(value?.domains) ? value.domains : [];
    const associated = Array.isArray(value?.domainAssociations)
      ? value.domainAssociations.map((a) => (a as { domain?: unknown } | null)?.domain)
      : [];
    found.set(
      proposal.urn.raw,
      [...new Set([...domains, ...associated])].filter((d): d is string => typeof d === 'string'),
    );
  }
  return found;
}

/** How a proposal write is answered. */
export interface ProposeOptions {
  /** Wait for persistence's outcome of each proposal (a synchronous write). */
  readonly sync: boolean;
}

/**
 * Writes as metadata change proposals: the generic routes' upsert, patch and delete of aspects, and the
 * writes of the use cases that decided their own privileges. Every write goes to the log with the
 * acting identity and where the request came from.
 */
export class Proposals {
  private readonly aspectRules: AspectWriteRules;

  constructor(
    private readonly store: AspectStore,
    private readonly submitter: ProposalSubmitter,
    private readonly policy: AccessPolicy,
    private readonly throttle?: ApiThrottle,
  ) {
    this.aspectRules = new AspectWriteRules(store, policy);
  }

  /**
   * Proposes aspect changes of the generic routes (ingestProposal, snapshots, the entity API): refused
   * (403, nothing written) unless the actor may make every one of them; held back (429) while the API
   * throttle is on for a synchronous write; then produced in one append.
   */
  async propose(
    ctx: RequestContext,
    proposals: readonly CheckedProposal[],
    options: ProposeOptions,
  ): Promise<readonly ProposalOutcome[] | undefined> {
    await this.authorize(ctx, proposals);
    this.throttle?.check(ctx, options.sync);
    return this.submitDecided(ctx, proposals, options);
  }

  /**
   * Produces proposals whose authorization the calling use case has decided itself (a GraphQL mutation
   * that asked its own privilege, sign-up, token minting).
   */
  submitDecided(
    ctx: RequestContext,
    proposals: readonly CheckedProposal[],
    options: ProposeOptions,
  ): Promise<readonly ProposalOutcome[] | undefined> {
    if (proposals.length === 0) return Promise.resolve(options.sync ? [] : undefined);
    return this.submitter.submit(proposals, {
      sync: options.sync,
      actor: ctx.authentication.actorUrn,
      origin: ctx.origin,
    });
  }

  /**
   * Whether the actor may make these writes, asked once per entity and kind of change (the ecosystem's
   * rule for ingestProposal): DELETE needs the delete privileges; PATCH, UPDATE and RESTATE the edit ones;
   * an UPSERT or CREATE the edit ones, or the create ones when the entity does not exist yet (read only
   * when the edit privileges are missing). A restricted aspect (secret material) also needs its manager's
   * platform privilege (RESTRICTED_WRITE_PRIVILEGES), whatever the REST toggle says; some aspects need
   * more for what they say (AspectWriteRules). Throws a 403 naming the first write refused.
   */
  async authorize(ctx: RequestContext, proposals: readonly CheckedProposal[]): Promise<void> {
    if (ctx.authentication.isSystem) return;
    await this.authorizeGuardedAspects(ctx, proposals);
    const actorUrn = ctx.authentication.actorUrn;
    const proposedDomains = proposedDomainsOf(proposals);
    const asked = new Set<string>();
    for (const proposal of proposals) {
      const urn = proposal.urn.raw;
      const entityType = proposal.entity.name;
      if (!this.policy.enforcesEntityPrivileges(ctx, entityType)) continue;
      const kind = proposal.changeType === 'DELETE' ? 'DELETE' : 'WRITE';
      if (asked.has(`${kind} ${urn}`)) continue;
      asked.add(`${kind} ${urn}`);
      if (kind === 'DELETE') {
        if (!(await this.holds(ctx, 'DELETE', entityType, urn)))
          throw new ForbiddenError(`User is unauthorized to delete entity: ${urn}`);
        continue;
      }
      let absent: Promise<boolean> | undefined;
      const keyAbsent = () =>
        (absent ??= unlessUnavailable('Authorization could not be decided', () =>
          this.store.get(urn, proposal.entity.keyAspect),
        ).then((key) => key === null));
      // A write that creates the entity, or gives it its first domains, is decided with the domains it
      // proposes: a policy scoped to a domain allows creating (or placing) an entity in that domain.
      const domains = await this.domainsToDecideWith(urn, proposedDomains.get(urn), keyAbsent);
      if (await this.holds(ctx, 'UPDATE', entityType, urn, domains)) continue;
      const creates = ['UPSERT', 'CREATE', 'CREATE_ENTITY'].includes(proposal.changeType);
      if (creates && (await this.holds(ctx, 'CREATE', entityType, urn, domains)) && (await keyAbsent()))
        continue;
      throw new ForbiddenError(`User ${actorUrn} is unauthorized to edit entity ${urn}`);
    }
    await this.aspectRules.authorize(ctx, proposals);
  }

  private holds(
    ctx: RequestContext,
    operation: 'UPDATE' | 'DELETE' | 'CREATE',
    entityType: string,
    urn: string,
    proposedDomains?: readonly string[],
  ): Promise<boolean> {
    return this.policy.holds(ctx, entityOperationPrivileges(operation, entityType), {
      resourceUrn: urn,
      ...(proposedDomains === undefined ? {} : { proposedDomains }),
    });
  }

  /**
   * The domains a write to `urn` is decided with: those it proposes when the entity does not exist yet or
   * has no domains stored (the ecosystem's rule); otherwise none given, and the stored ones count.
   */
  private async domainsToDecideWith(
    urn: string,
    proposed: readonly string[] | undefined,
    keyAbsent: () => Promise<boolean>,
  ): Promise<readonly string[] | undefined> {
    if (proposed === undefined) return undefined;
    if (await keyAbsent()) return proposed;
    const stored = await unlessUnavailable('Authorization could not be decided', () =>
      this.store.get(urn, 'domains'),
    );
    return stored === null ? proposed : undefined;
  }

  /**
   * The rules of aspects that are guarded whichever way they are written (a use case that decided the
   * entity's own privileges asks them too): a restricted aspect needs its manager's platform privilege
   * (RESTRICTED_WRITE_PRIVILEGES), a role grant MANAGE_POLICIES, and adding a user to groups what
   * AccessPolicy.requireGroupGrant asks. Throws a 403 naming the rule.
   */
  async authorizeGuardedAspects(ctx: RequestContext, proposals: readonly CheckedProposal[]): Promise<void> {
    if (ctx.authentication.isSystem) return;
    for (const aspect of new Set(
      proposals.filter((p) => p.aspect.restricted && p.changeType !== 'DELETE').map((p) => p.aspect.name),
    )) {
      const privileges = RESTRICTED_WRITE_PRIVILEGES[aspect];
      const message = `Writing ${aspect} (secret material) needs ${privileges?.join(' or ') ?? 'the system client'}`;
      if (privileges === undefined) throw new ForbiddenError(message);
      await this.policy.require(ctx, { privileges: [privileges], message });
    }
    await this.authorizeRoleGrants(ctx, proposals);
    await this.authorizeGroupGrants(ctx, proposals);
  }

  /**
   * Adding a user to groups through a generic write (groupMembership, nativeGroupMembership) takes what
   * addGroupMembers takes (AccessPolicy.requireGroupGrant), whatever edit privileges the actor holds on
   * the user: the groups added are those of the written value, or of the patch applied to the stored one,
   * that the user does not hold yet.
   */
  private async authorizeGroupGrants(ctx: RequestContext, proposals: readonly CheckedProposal[]) {
    for (const proposal of proposals) {
      if (!isGroupMembershipAspect(proposal.aspect.name) || proposal.changeType === 'DELETE') continue;
      const urn = proposal.urn.raw;
      const current = await unlessUnavailable('Authorization could not be decided', () =>
        this.store.get(urn, proposal.aspect.name),
      );
      await this.policy.requireGroupGrant(ctx, urn, addedGroups(proposal, current?.value ?? null));
    }
  }

  /**
   * Granting a role through a generic write needs MANAGE_POLICIES on the entity (the ecosystem's
   * privilege-grant validator: what batchAssignRole asks), whatever edit privileges the actor holds on
   * it, so that owning a group or user is not enough to make it Admin. A role grant is an upsert adding a
   * role the entity does not hold yet, or any patch other than removals (its result is not known yet).
   */
  private async authorizeRoleGrants(ctx: RequestContext, proposals: readonly CheckedProposal[]) {
    for (const proposal of proposals) {
      if (proposal.aspect.name !== 'roleMembership' || proposal.changeType === 'DELETE') continue;
      const urn = proposal.urn.raw;
      let granted: string[];
      if (proposal.changeType === 'PATCH') {
        if ((proposal.patch?.operations ?? []).every((op) => op.op === 'remove')) continue;
        granted = ['(patched roles)'];
      } else {
        const current = await unlessUnavailable('Authorization could not be decided', () =>
          this.store.get(urn, 'roleMembership'),
        );
        const held = new Set((current?.value['roles'] as string[] | undefined) ?? []);
        granted = ((proposal.value?.['roles'] as string[] | undefined) ?? []).filter((r) => !held.has(r));
        if (granted.length === 0) continue;
      }
      await this.policy.require(ctx, {
        privileges: [MANAGE_POLICIES],
        resourceUrn: urn,
        message: `Unauthorized to grant roles ${granted.join(', ')} (requires MANAGE_POLICIES on ${urn})`,
      });
    }
  }

  /**
   * The ecosystem's rollback gate: MANAGE on ingestion sources (their UPDATE and DELETE privileges),
   * then DELETE on every entity the run's rows name. Off with REST API authorization, as its other
   * Rest.li checks.
   */
  async authorizeRollback(ctx: RequestContext, urns: readonly string[]): Promise<void> {
    await this.policy.requireForEntity(ctx, {
      privileges: manageRequires('dataHubIngestionSource'),
      resourceType: 'dataHubIngestionSource',
      message: 'User is unauthorized to update entity',
    });
    for (const urn of urns) {
      await this.policy.requireForEntity(ctx, {
        privileges: [entityOperationPrivileges('DELETE', entityTypeOfUrn(urn))],
        resourceUrn: urn,
        message: `User is unauthorized to delete entity: ${urn}`,
      });
    }
  }
}
