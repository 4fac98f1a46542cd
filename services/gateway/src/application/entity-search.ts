import type { RequestContext } from '@catalog/auth';
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  SearchHit,
  SearchIndex,
  SearchRequest,
  SearchResponse,
} from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';

// The domain shapes of a search, for the interfaces that build requests and format answers.
export { normalizeFilter } from '@catalog/search';
export type {
  AutocompleteRequest,
  Criterion,
  Filter,
  SearchHit,
  SearchRequest,
  SearchResponse,
  SortCriterion,
} from '@catalog/search';

/** A page of search hits the actor may read, and where the index's own page ended (for scrolls). */
export interface SearchPage extends SearchResponse {
  /** The index's page before unreadable hits were left out: a scroll continues after its last hit. */
  readonly scanned: { readonly count: number; readonly total: number; readonly last?: SearchHit };
}

/**
 * Searching, scrolling, aggregating and autocompleting entities, as the actor may see them. Each hit is
 * decided as a single read of it would be (`AccessPolicy.readable`, one batch per page): those the actor
 * may not read are left out of the page, and out of `total` as far as this page shows them. Facet counts
 * are the index's (they name no entity the actor could not otherwise learn of by its urn).
 */
export class EntitySearch {
  constructor(
    private readonly index: SearchIndex,
    private readonly policy: AccessPolicy,
  ) {}

  async search(ctx: RequestContext, request: SearchRequest): Promise<SearchPage> {
    const response = await this.index.search(request);
    const hits = await this.readableHits(ctx, response.hits);
    const scanned = {
      count: response.hits.length,
      total: response.total,
      ...(response.hits.length === 0 ? {} : { last: response.hits[response.hits.length - 1]! }),
    };
    return {
      total: response.total - (response.hits.length - hits.length),
      hits,
      aggregations: response.aggregations,
      scanned,
    };
  }

  /**
   * Suggestions and the entities they come from. Suggestions are field values of the matched entities,
   * not paired with them: when one entity is left out its values may be among them, so none are kept.
   */
  async autocomplete(ctx: RequestContext, request: AutocompleteRequest): Promise<AutocompleteResponse> {
    const response = await this.index.autocomplete(request);
    const entities = await this.policy.readable(ctx, response.entities);
    return entities.length === response.entities.length ? response : { suggestions: [], entities };
  }

  /** Those of `hits` the actor may read, in order. */
  async readableHits(ctx: RequestContext, hits: readonly SearchHit[]): Promise<readonly SearchHit[]> {
    if (ctx.authentication.isSystem || hits.length === 0) return hits;
    const readable = new Set(
      await this.policy.readable(
        ctx,
        hits.map((hit) => hit.urn),
      ),
    );
    return readable.size === hits.length ? hits : hits.filter((hit) => readable.has(hit.urn));
  }
}
