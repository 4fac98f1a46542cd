import type { Logger } from '@catalog/runtime';
import type { RequestContext } from '@catalog/auth';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { NativeUserService } from '../identity/native-user-service.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import type { ActorEntityLoader } from '../application/actor-entity-loader.js';
import type { CatalogApplication, CatalogApplicationDeps } from '../application/catalog-application.js';

/** What the GraphQL resolvers reach. */
export interface GraphQLServices {
  /** The use cases: resolvers call these. */
  readonly app: CatalogApplication;
  /** The ports below are on their way out of this interface (the administrative resolvers still read them). */
  readonly store: CatalogApplicationDeps['store'];
  readonly search: CatalogApplicationDeps['search'];
  readonly graph: CatalogApplicationDeps['graph'];
  readonly submitter: ProposalSubmitter;
  readonly logger: Logger;
  readonly auth: GatewayAuth;
  readonly nativeUsers: NativeUserService;
}

/** One request's context: who acts, its id, and its batched entity reads. */
export interface GraphQLContext {
  readonly services: GraphQLServices;
  /** The acting user's urn (= auth.authentication.actorUrn). */
  readonly actor: string;
  /** Who acts and where the request came from. */
  readonly auth: RequestContext;
  readonly requestId: string;
  /** The entities the request reads, as its actor may see them. */
  readonly entities: ActorEntityLoader;
}
