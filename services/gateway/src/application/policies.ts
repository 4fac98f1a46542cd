import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { formatUrn } from '@catalog/model';
import {
  matchesFilter,
  parseSearchInput,
  termsMatchText,
  type Filter,
  type SearchQuery,
} from '@catalog/search';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { documentFieldValues, requireUrnOfType } from './entity-urns.js';
import { writeDecided } from './aspect-changes.js';
import { policyInfoOf, type PolicyUpdateInput } from './policy-info.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const ENTITY = 'dataHubPolicy';
const INFO = 'dataHubPolicyInfo';
const KEY = 'dataHubPolicyKey';
/** Every policy operation: reading policies shows who may do what, writing them grants anything. */
const MANAGE_POLICIES = ['MANAGE_POLICIES'] as const;

type Json = Readonly<Record<string, unknown>>;

/** A stored policy: its urn and `dataHubPolicyInfo`. */
export interface StoredPolicy {
  readonly urn: string;
  readonly info: Json;
}

/**
 * Whether a stored policy is in a listing: its search document (the fields the policy index has) must
 * match the query and the filter, as a search of the policy index would.
 */
export function policyMatches(urn: string, info: Json, query: SearchQuery, filter: Filter): boolean {
  const valuesOf = documentFieldValues(ENTITY, urn, new Map([[INFO, info as Record<string, unknown>]]));
  if (!matchesFilter(filter, valuesOf)) return false;
  switch (query.kind) {
    case 'all':
      return true;
    case 'text':
      return termsMatchText(query.terms, [...valuesOf('displayName'), ...valuesOf('description')].join(' '));
    case 'field': {
      const wanted = query.value.toLowerCase();
      return valuesOf(query.field).some((v) => {
        const text = String(v).toLowerCase();
        return query.prefix === true ? text.startsWith(wanted) : text === wanted;
      });
    }
  }
}

/** Newest change first (the ecosystem sorts policies by lastUpdatedTimestamp descending), then by urn. */
export function byLastUpdatedDescending(a: StoredPolicy, b: StoredPolicy): number {
  const at = a.info['lastUpdatedTimestamp'];
  const bt = b.info['lastUpdatedTimestamp'];
  const an = typeof at === 'number' ? at : undefined;
  const bn = typeof bt === 'number' ? bt : undefined;
  if (an !== bn) {
    if (an === undefined) return 1;
    if (bn === undefined) return -1;
    return bn - an;
  }
  return a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0;
}

/**
 * Access policies: listing, creating, updating and deleting them, all for who holds MANAGE_POLICIES.
 * After a change this node's authorizer reads policies again at once.
 */
export class PolicyAdmin {
  constructor(
    private readonly auth: Pick<GatewayAuth, 'authorizer'>,
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** A page of the policies matching the query and filter, newest change first. */
  async list(
    ctx: RequestContext,
    request: {
      readonly query?: string | null;
      readonly filter: Filter;
      readonly start: number;
      readonly count: number;
    },
  ): Promise<{ readonly total: number; readonly policies: readonly StoredPolicy[] }> {
    await requireAnyOf(this.policy, ctx, MANAGE_POLICIES);
    const query = parseSearchInput(request.query ?? '*');
    // Policies are few (the authorizer reads them all too), so the listing reads them whole.
    const matching = (await this.stored.all(ENTITY, INFO))
      .filter((p) => policyMatches(p.urn, p.info, query, request.filter))
      .sort(byLastUpdatedDescending);
    return { total: matching.length, policies: matching.slice(request.start, request.start + request.count) };
  }

  /** Creates a policy; returns its new urn. */
  async create(ctx: RequestContext, input: PolicyUpdateInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_POLICIES);
    const info = policyInfoOf(input, { now: Date.now(), editable: true });
    return this.write(ctx, formatUrn(ENTITY, [randomUUID()]), info);
  }

  /**
   * Replaces a policy. As in the ecosystem, any policy may be updated (an absent one is created); a
   * system policy keeps its non-editable mark, so the bootstrap still owns it.
   */
  async update(ctx: RequestContext, urn: string, input: PolicyUpdateInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_POLICIES);
    requireUrnOfType(urn, ENTITY);
    const stored = await this.stored.aspect(urn, INFO);
    const info = policyInfoOf(input, { now: Date.now(), editable: stored?.['editable'] !== false });
    return this.write(ctx, urn, info);
  }

  async delete(ctx: RequestContext, urn: string): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_POLICIES);
    requireUrnOfType(urn, ENTITY);
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
    this.auth.authorizer.invalidatePolicies();
    return urn;
  }

  private async write(ctx: RequestContext, urn: string, info: Record<string, unknown>): Promise<string> {
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
    this.auth.authorizer.invalidatePolicies();
    return urn;
  }
}
