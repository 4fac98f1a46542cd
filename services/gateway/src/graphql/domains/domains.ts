import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';
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

extend type Domain {
  entities(input: DomainEntitiesInput): SearchResults
  parentDomains: ParentDomainsResult
}

extend type Container {
  entities(input: ContainerEntitiesInput): SearchResults
}

extend type Mutation {
  deleteDomain(urn: String!): Boolean
  moveDomain(input: MoveDomainInput!): Boolean
}
`;

type Json = Readonly<Record<string, unknown>>;
type Args = { readonly input?: ScopedSearchInput | null };

/** Parent domains followed this far up (a cycle stops there too). */
const MAX_PARENT_DEPTH = 50;

export function domainResolvers(): Record<string, Record<string, unknown>> {
  return {
    Domain: {
      // The ecosystem's searchable entity types with the domain among their domains.
      entities: (ref: EntityRef, args: Args, ctx: GraphQLContext) =>
        searchWithin(ctx, args.input, { field: 'domains', values: [ref.urn] }, entitiesOf(null)),
      parentDomains: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        // Nearest first, each read as the actor may see it; a cycle ends the chain.
        const domains: EntityRef[] = [];
        let next = (await ctx.entities.aspect<Json>(ref.urn, 'domainProperties'))?.['parentDomain'];
        while (
          typeof next === 'string' &&
          next !== ref.urn &&
          !domains.some((d) => d.urn === next) &&
          domains.length < MAX_PARENT_DEPTH
        ) {
          domains.push({ urn: next, entity: 'domain' });
          next = (await ctx.entities.aspect<Json>(next, 'domainProperties'))?.['parentDomain'];
        }
        return { count: domains.length, domains };
      },
    },
    Container: {
      entities: (ref: EntityRef, args: Args, ctx: GraphQLContext) =>
        searchWithin(ctx, args.input, { field: 'container', values: [ref.urn] }, entitiesOf(null)),
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
