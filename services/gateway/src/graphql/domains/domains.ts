import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';
import { entitiesOf } from '../search/search-resolvers.js';
import { searchWithin, type ScopedSearchInput } from '../search/scoped-search.js';

/**
 * What domains and containers hold (`Domain.entities`, `Container.entities`), a domain's parents, and
 * deleting and moving domains, in the ecosystem's shapes.
 */
export const domainSchema = `
input DomainEntitiesInput { query: String start: Int count: Int filters: [FacetFilterInput!] }
input ContainerEntitiesInput { query: String start: Int count: Int filters: [FacetFilterInput!] }
input MoveDomainInput { parentDomain: String resourceUrn: String! }
type ParentDomainsResult { count: Int! domains: [Entity!]! }
type ParentContainersResult { count: Int! containers: [Container!]! }

extend type Domain {
  entities(input: DomainEntitiesInput): SearchResults
  parentDomains: ParentDomainsResult
}

extend type Container {
  entities(input: ContainerEntitiesInput): SearchResults
  parentContainers: ParentContainersResult
}

extend type Mutation {
  deleteDomain(urn: String!): Boolean
  moveDomain(input: MoveDomainInput!): Boolean
}
`;

type Args = { readonly input?: ScopedSearchInput | null };

/** Parents followed this far up (a cycle stops there too). */
const MAX_PARENT_DEPTH = 50;

/**
 * The chain of parents of an entity, nearest first (`aspect`.`field` of each names its parent), followed
 * whether or not the actor may read each entity (as the ecosystem's parent resolvers do), each parent
 * then shown as the actor may see it (a stub of one it may not read); a cycle or an entity without a
 * parent ends the chain.
 */
async function parentChain(
  ctx: GraphQLContext,
  ref: EntityRef,
  aspect: string,
  field: string,
): Promise<EntityRef[]> {
  const chain: EntityRef[] = [];
  let next = await ctx.entities.parentOf(ref.urn, aspect, field);
  while (
    typeof next === 'string' &&
    next !== ref.urn &&
    !chain.some((d) => d.urn === next) &&
    chain.length < MAX_PARENT_DEPTH
  ) {
    const parent = refOf(next);
    if (parent === undefined) break;
    chain.push(parent);
    next = await ctx.entities.parentOf(next, aspect, field);
  }
  return chain;
}

export function domainResolvers(): Record<string, Record<string, unknown>> {
  return {
    Domain: {
      // The ecosystem's searchable entity types with the domain among their domains.
      entities: (ref: EntityRef, args: Args, ctx: GraphQLContext) =>
        searchWithin(ctx, args.input, { field: 'domains', values: [ref.urn] }, entitiesOf(null)),
      parentDomains: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const domains = await parentChain(ctx, ref, 'domainProperties', 'parentDomain');
        return { count: domains.length, domains };
      },
    },
    Container: {
      entities: (ref: EntityRef, args: Args, ctx: GraphQLContext) =>
        searchWithin(ctx, args.input, { field: 'container', values: [ref.urn] }, entitiesOf(null)),
      parentContainers: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const containers = await parentChain(ctx, ref, 'container', 'container');
        return { count: containers.length, containers };
      },
    },
    Mutation: {
      deleteDomain: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        await ctx.services.app.domains.delete(ctx.auth, urn);
        return true;
      },
      moveDomain: async (
        _r: unknown,
        { input }: { input: { parentDomain?: string | null; resourceUrn: string } },
        ctx: GraphQLContext,
      ) => {
        await ctx.services.app.domains.move(ctx.auth, input.resourceUrn, input.parentDomain ?? null);
        return true;
      },
    },
  };
}
