import type { AuditIndex, GraphIndex, SearchIndex, TimeseriesIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { AuditSearch } from './audit-search.js';
import { EntityLookups } from './entity-lookups.js';
import { EntityPages } from './entity-pages.js';
import { EntityReads } from './entity-reads.js';
import { EntityWrites } from './entity-writes.js';
import { Proposals } from './proposals.js';
import { Relationships } from './relationships.js';
import { TimeseriesReads } from './timeseries-reads.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';

/** What the application layer is built over: the ports and the authorizer, chosen by the composition root. */
export interface CatalogApplicationDeps {
  readonly store: AspectStore;
  readonly auth: GatewayAuth;
  readonly submitter: ProposalSubmitter;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  readonly audit: AuditIndex;
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
  /** Lists and scrolls of entities, unreadable ones left out. */
  readonly entityPages: EntityPages;
  /** Existence, numbered versions and per-item batch reads of entities. */
  readonly entityLookups: EntityLookups;
  /** The entity API's writes and deletes, and the read back of what was written. */
  readonly entityWrites: EntityWrites;
  /** Entities related to an entity, unreadable ones left out. */
  readonly relationships: Relationships;
  /** Time-series aspect values. */
  readonly timeseries: TimeseriesReads;
  /** The audit event search. */
  readonly auditEvents: AuditSearch;
}

export function createCatalogApplication(deps: CatalogApplicationDeps): CatalogApplication {
  const policy = new AccessPolicy(deps.auth);
  const entities = new EntityReads(deps.store, policy);
  const proposals = new Proposals(deps.store, deps.submitter, policy);
  return {
    policy,
    entities,
    proposals,
    entityPages: new EntityPages(deps.search, policy, entities),
    entityLookups: new EntityLookups(deps.store, policy, entities),
    entityWrites: new EntityWrites(deps.store, deps.timeseries, policy, proposals),
    relationships: new Relationships(deps.graph, policy),
    timeseries: new TimeseriesReads(deps.timeseries, policy),
    auditEvents: new AuditSearch(deps.audit, policy),
  };
}
