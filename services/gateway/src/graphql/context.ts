import type { AspectStore } from '@catalog/store';
import type { GraphIndex, SearchIndex } from '@catalog/search';
import type { Logger } from '@catalog/runtime';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import type { EntityLoader } from './entities/entity-loader.js';

/** What the GraphQL resolvers reach: the same ports as the Rest.li routes. */
export interface GraphQLServices {
  readonly store: AspectStore;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly submitter: ProposalSubmitter;
  readonly logger: Logger;
}

/** One request's context: who acts, its id, and its batched entity reads. */
export interface GraphQLContext {
  readonly services: GraphQLServices;
  readonly actor: string;
  readonly requestId: string;
  readonly entities: EntityLoader;
}
