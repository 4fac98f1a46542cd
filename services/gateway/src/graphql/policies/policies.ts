import { randomUUID } from 'node:crypto';
import { entityRegistry, formatUrn, ValidationError } from '@catalog/model';
import {
  buildEntityDocument,
  matchesFilter,
  parseSearchInput,
  termsMatchText,
  type Filter,
  type SearchQuery,
} from '@catalog/search';
import { requirePrivilege } from '../authorization.js';
import type { GraphQLContext } from '../context.js';
import { requireRef } from '../entities/entity-ref.js';
import { writeAspects } from '../mutations/write-proposals.js';
import { filterOf } from '../search/search-resolvers.js';
import { policyInfoOf, policyView, type PolicyUpdateInput } from './policy-info.js';
import { pageOf } from '../list-page.js';

const ENTITY = 'dataHubPolicy';
const INFO = 'dataHubPolicyInfo';
const KEY = 'dataHubPolicyKey';
/** Every policy operation: reading policies shows who may do what, writing them grants anything. */
const MANAGE_POLICIES = ['MANAGE_POLICIES'] as const;

/** DataHub access policies (entity.graphql): who may do what, on which resources. */
export const policySchema = `
enum PolicyType { METADATA PLATFORM }
enum PolicyState { DRAFT ACTIVE INACTIVE }
enum PolicyMatchCondition { EQUALS STARTS_WITH NOT_EQUALS }

input PolicyMatchCriterionInput { field: String! values: [String!]! condition: PolicyMatchCondition! }
input PolicyMatchFilterInput { criteria: [PolicyMatchCriterionInput!] }
input ResourceFilterInput {
  type: String
  resources: [String!]
  allResources: Boolean
  filter: PolicyMatchFilterInput
}
input ActorFilterInput {
  users: [String!]
  groups: [String!]
  roles: [String!]
  resourceOwners: Boolean!
  resourceOwnersTypes: [String!]
  allUsers: Boolean!
  allGroups: Boolean!
}
input PolicyUpdateInput {
  type: PolicyType!
  name: String!
  state: PolicyState!
  description: String
  resources: ResourceFilterInput
  privileges: [String!]!
  actors: ActorFilterInput!
}
input ListPoliciesInput { start: Int count: Int query: String orFilters: [AndFilterInput!] }

type PolicyMatchCriterionValue { value: String! entity: Entity }
type PolicyMatchCriterion {
  field: String!
  values: [PolicyMatchCriterionValue!]!
  condition: PolicyMatchCondition!
}
type PolicyMatchFilter { criteria: [PolicyMatchCriterion!] }
type ResourceFilter { type: String resources: [String!] allResources: Boolean filter: PolicyMatchFilter }
type ActorFilter {
  users: [String!]
  groups: [String!]
  roles: [String!]
  resourceOwners: Boolean!
  resourceOwnersTypes: [String!]
  resolvedOwnershipTypes: [OwnershipTypeEntity!]
  allUsers: Boolean!
  allGroups: Boolean!
  resolvedUsers: [CorpUser!]
  resolvedGroups: [CorpGroup!]
  resolvedRoles: [DataHubRole!]
}
type Policy {
  urn: String!
  type: PolicyType!
  name: String!
  state: PolicyState!
  description: String
  resources: ResourceFilter
  privileges: [String!]!
  actors: ActorFilter!
  editable: Boolean!
}
type ListPoliciesResult { start: Int! count: Int! total: Int! policies: [Policy!]! }

extend type Query {
  listPolicies(input: ListPoliciesInput!): ListPoliciesResult
}

extend type Mutation {
  createPolicy(input: PolicyUpdateInput!): String
  updatePolicy(urn: String!, input: PolicyUpdateInput!): String
  deletePolicy(urn: String!): String
}
`;

interface ListPoliciesInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
  readonly orFilters?: Parameters<typeof filterOf>[0]['orFilters'];
}

type Json = Readonly<Record<string, unknown>>;

/** A policy urn a client gave: a 400 unless it names a dataHubPolicy. */
function requirePolicyUrn(urn: string): string {
  const ref = requireRef(urn);
  if (ref.entity !== ENTITY)
    throw new ValidationError(`Expected a dataHubPolicy urn, got ${JSON.stringify(urn)}`);
  return urn;
}

/** Writes the policy's info and makes this node's authorizer read policies again at once. */
async function writePolicy(ctx: GraphQLContext, urn: string, info: Record<string, unknown>): Promise<string> {
  await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: INFO, value: info }]);
  ctx.services.auth.authorizer.invalidatePolicies();
  return urn;
}

/** Every stored policy (policies are few: the authorizer reads them all too). */
async function storedPolicies(ctx: GraphQLContext): Promise<{ urn: string; info: Json }[]> {
  const policies: { urn: string; info: Json }[] = [];
  let after: string | undefined;
  do {
    const page = await ctx.services.store.scan({
      aspect: INFO,
      urnLike: 'urn:li:dataHubPolicy:%',
      limit: 500,
      ...(after === undefined ? {} : { after }),
    });
    for (const item of page.items) policies.push({ urn: item.urn, info: item.value });
    after = page.next;
  } while (after !== undefined);
  return policies;
}

/**
 * Whether a stored policy is in a listing: its search document (the fields the policy index has) must
 * match the query and the filter, as a search of the policy index would.
 */
export function policyMatches(urn: string, info: Json, query: SearchQuery, filter: Filter): boolean {
  const document = buildEntityDocument(
    entityRegistry.requireEntity(ENTITY),
    urn,
    new Map([[INFO, info as Record<string, unknown>]]),
  );
  const valuesOf = (field: string): readonly unknown[] => {
    const value = document.fields[field];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };
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
export function byLastUpdatedDescending(
  a: { urn: string; info: Json },
  b: { urn: string; info: Json },
): number {
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

export function policyResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      listPolicies: async (_r: unknown, { input }: { input: ListPoliciesInput }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_POLICIES);
        const { start, count } = pageOf(input);
        const query = parseSearchInput(input.query ?? '*');
        const filter = filterOf({ orFilters: input.orFilters ?? null });
        const matching = (await storedPolicies(ctx))
          .filter((p) => policyMatches(p.urn, p.info, query, filter))
          .sort(byLastUpdatedDescending);
        const views = matching.slice(start, start + count).flatMap((p) => {
          const view = policyView(p.urn, p.info);
          if (view === undefined)
            ctx.services.logger.warn(
              { urn: p.urn },
              'Policy with an unknown type or state left out of the listing',
            );
          return view === undefined ? [] : [view];
        });
        return { start, count: views.length, total: matching.length, policies: views };
      },
    },
    Mutation: {
      createPolicy: async (_r: unknown, { input }: { input: PolicyUpdateInput }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_POLICIES);
        const info = policyInfoOf(input, { now: Date.now(), editable: true });
        return writePolicy(ctx, formatUrn(ENTITY, [randomUUID()]), info);
      },
      updatePolicy: async (
        _r: unknown,
        { urn, input }: { urn: string; input: PolicyUpdateInput },
        ctx: GraphQLContext,
      ) => {
        await requirePrivilege(ctx, MANAGE_POLICIES);
        requirePolicyUrn(urn);
        // As in the ecosystem, any policy may be updated (an absent one is created); a system policy
        // keeps its non-editable mark, so the bootstrap still owns it.
        const stored = await ctx.entities.aspect<Json>(urn, INFO);
        const info = policyInfoOf(input, { now: Date.now(), editable: stored?.['editable'] !== false });
        return writePolicy(ctx, urn, info);
      },
      deletePolicy: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await requirePrivilege(ctx, MANAGE_POLICIES);
        requirePolicyUrn(urn);
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
        ctx.services.auth.authorizer.invalidatePolicies();
        return urn;
      },
    },
  };
}
