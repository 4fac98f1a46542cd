import type { AspectStore } from '@catalog/store';
import type { GraphIndex, SearchIndex } from '@catalog/search';
import type { Logger } from '@catalog/runtime';
import type { RequestContext } from '@catalog/auth';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { NativeUserService } from '../identity/native-user-service.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import type { EntityLoader } from './entities/entity-loader.js';
import type { CatalogApplication } from '../application/catalog-application.js';
import type { RequestBudget } from './bounds/request-budget.js';

/** What the GraphQL resolvers reach: the same ports as the Rest.li routes. */
export interface GraphQLServices {
  /** The use cases: resolvers call these; the ports below are on their way out of this interface. */
  readonly app: CatalogApplication;
  readonly store: AspectStore;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
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
  readonly entities: EntityLoader;
  /** Its time and entity budget: long loops check `budget.signal`. */
  readonly budget: RequestBudget;
}
