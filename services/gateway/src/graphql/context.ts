import type { Logger } from '@catalog/runtime';
import type { RequestContext } from '@catalog/auth';
import type { ActorEntityLoader } from '../application/actor-entity-loader.js';
import type { CatalogApplication } from '../application/catalog-application.js';
import type { RequestBudget } from './bounds/request-budget.js';

/** What the GraphQL resolvers reach. */
export interface GraphQLServices {
  /** The use cases: resolvers call these. */
  readonly app: CatalogApplication;
  readonly logger: Logger;
  /** The server configuration (the body of GET /config), which `appConfig` shows. */
  readonly serverConfig?: Readonly<Record<string, unknown>>;
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
  /** Its time and entity budget: long loops check `budget.signal`. */
  readonly budget: RequestBudget;
}
