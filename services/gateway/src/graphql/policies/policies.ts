import type { PolicyUpdateInput } from '../../application/policy-info.js';
import type { GraphQLContext } from '../context.js';
import { pageOf } from '../list-page.js';
import { filterOf } from '../search/search-resolvers.js';
import { policyView } from './policy-view.js';

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

export function policyResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      listPolicies: async (_r: unknown, { input }: { input: ListPoliciesInput }, ctx: GraphQLContext) => {
        const { start, count } = pageOf(input);
        const page = await ctx.services.app.policies.list(ctx.auth, {
          query: input.query ?? null,
          filter: filterOf({ orFilters: input.orFilters ?? null }),
          start,
          count,
        });
        const views = page.policies.flatMap((p) => {
          const view = policyView(p.urn, p.info);
          if (view === undefined)
            ctx.services.logger.warn(
              { urn: p.urn },
              'Policy with an unknown type or state left out of the listing',
            );
          return view === undefined ? [] : [view];
        });
        return { start, count: views.length, total: page.total, policies: views };
      },
    },
    Mutation: {
      createPolicy: (_r: unknown, { input }: { input: PolicyUpdateInput }, ctx: GraphQLContext) =>
        ctx.services.app.policies.create(ctx.auth, input),
      updatePolicy: (
        _r: unknown,
        { urn, input }: { urn: string; input: PolicyUpdateInput },
        ctx: GraphQLContext,
      ) => ctx.services.app.policies.update(ctx.auth, urn, input),
      deletePolicy: (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) =>
        ctx.services.app.policies.delete(ctx.auth, urn),
    },
  };
}
