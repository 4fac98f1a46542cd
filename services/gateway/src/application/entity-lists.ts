import type { RequestContext } from '@catalog/auth';
import type { Filter, SortCriterion } from '@catalog/search';
import type { EntitySearch } from './entity-search.js';

/** One page of one entity type, found by a free-text query (empty lists all). */
export interface ListRequest {
  readonly entityType: string;
  readonly query: string;
  readonly start: number;
  readonly count: number;
  readonly filter?: Filter;
  readonly sort?: readonly SortCriterion[];
}

export interface ListPage {
  readonly total: number;
  /** The page's entities the actor may read, in the index's order. */
  readonly urns: readonly string[];
}

/**
 * Lists of one entity type from the search index (users, roles, groups, as the ecosystem's list
 * resolvers read them): a page of a search, with the entities the actor may not read left out.
 */
export class EntityLists {
  constructor(private readonly search: EntitySearch) {}

  async page(ctx: RequestContext, request: ListRequest): Promise<ListPage> {
    const query = request.query.trim();
    const page = await this.search.search(ctx, {
      entityTypes: [request.entityType],
      input: query === '' ? '*' : query,
      start: request.start,
      count: request.count,
      ...(request.filter === undefined ? {} : { filter: request.filter }),
      ...(request.sort === undefined ? {} : { sort: request.sort }),
    });
    return { total: page.total, urns: page.hits.map((hit) => hit.urn) };
  }
}
