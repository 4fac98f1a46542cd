import type { RequestContext } from '@catalog/auth';
import type { GraphIndex, SearchIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { ActorEntityLoader } from './actor-entity-loader.js';
import { Browse } from './browse.js';
import { EntityLists } from './entity-lists.js';
import { EntityReads } from './entity-reads.js';
import { EntitySearch } from './entity-search.js';
import { Lineage } from './lineage.js';
import { Proposals } from './proposals.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';

/** What the application layer is built over: the ports and the authorizer, chosen by the composition root. */
export interface CatalogApplicationDeps {
  readonly store: AspectStore;
  readonly auth: GatewayAuth;
  readonly submitter: ProposalSubmitter;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
}

/**
 * The catalog's use cases, grouped by what a user does. Every interface (Rest.li, OpenAPI, GraphQL, and
 * those to come) calls these with the request's context; authorization and what the actor may see are
 * decided here, once, the same for every route.
 */
export interface CatalogApplication {
  /** The one place privileges are asked. */
  readonly policy: AccessPolicy;
  /** Entity reads: single, batch, and the pages of lists, scrolls and searches. */
  readonly entities: EntityReads;
  /** Aspect writes as proposals on the log. */
  readonly proposals: Proposals;
  /** One request's batched entity reads, as its actor may see them (GraphQL's per-request loader). */
  entityLoader(ctx: RequestContext): ActorEntityLoader;
  /** Searches, scrolls, aggregations and autocompletion. */
  readonly search: EntitySearch;
  /** Browsing by browse paths. */
  readonly browse: Browse;
  /** Relationships and lineage. */
  readonly lineage: Lineage;
  /** Pages of one entity type (users, roles, groups). */
  readonly lists: EntityLists;
}

export function createCatalogApplication(deps: CatalogApplicationDeps): CatalogApplication {
  const policy = new AccessPolicy(deps.auth);
  const search = new EntitySearch(deps.search, policy);
  return {
    policy,
    entities: new EntityReads(deps.store, policy),
    proposals: new Proposals(deps.store, deps.submitter, policy),
    entityLoader: (ctx) => new ActorEntityLoader(deps.store, policy, ctx),
    search,
    browse: new Browse(deps.search, policy),
    lineage: new Lineage(deps.graph, search, policy),
    lists: new EntityLists(search),
  };
}
