import type { AspectStore } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { EntityReads } from './entity-reads.js';
import { Proposals } from './proposals.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';

/** What the application layer is built over: the ports and the authorizer, chosen by the composition root. */
export interface CatalogApplicationDeps {
  readonly store: AspectStore;
  readonly auth: GatewayAuth;
  readonly submitter: ProposalSubmitter;
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
}

export function createCatalogApplication(deps: CatalogApplicationDeps): CatalogApplication {
  const policy = new AccessPolicy(deps.auth);
  return {
    policy,
    entities: new EntityReads(deps.store, policy),
    proposals: new Proposals(deps.store, deps.submitter, policy),
  };
}
