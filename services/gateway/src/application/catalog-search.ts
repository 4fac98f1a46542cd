import type { RequestContext } from '@catalog/auth';
import {
  BROWSE_PATHS_FIELD,
  type AutocompleteRequest,
  type AutocompleteResponse,
  type BrowseRequest,
  type BrowseResponse,
  type GraphIndex,
  type RelatedRequest,
  type RelatedResponse,
  type SearchIndex,
  type SearchRequest,
  type SearchResponse,
} from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';

/**
 * Search, browse, autocomplete and relationships over the indices, as the actor may see them: the
 * search gate on the type first, then every entity a page names decided as a single read of it would
 * be; unreadable ones are left out of the page. Totals and facet counts are the index's, so they may
 * count entities the actor does not see (their urns never leave).
 */
export class CatalogSearch {
  constructor(
    private readonly index: SearchIndex,
    private readonly graph: GraphIndex,
    private readonly policy: AccessPolicy,
  ) {}

  async search(ctx: RequestContext, request: SearchRequest): Promise<SearchResponse> {
    await this.policy.search(ctx, singleType(request.entityTypes));
    const result = await this.index.search(request);
    const keep = await this.readableSet(
      ctx,
      result.hits.map((h) => h.urn),
    );
    return keep === undefined ? result : { ...result, hits: result.hits.filter((h) => keep.has(h.urn)) };
  }

  async browse(ctx: RequestContext, request: BrowseRequest): Promise<BrowseResponse> {
    await this.policy.search(ctx, request.entityType);
    const result = await this.index.browse(request);
    const keep = await this.readableSet(
      ctx,
      result.entities.map((e) => e.urn),
    );
    return keep === undefined
      ? result
      : { ...result, entities: result.entities.filter((e) => keep.has(e.urn)) };
  }

  /**
   * Suggestions are names of the entities matched; when the actor may not read one of them, the
   * suggestions (which cannot be told apart by entity) are withheld with it.
   */
  async autocomplete(ctx: RequestContext, request: AutocompleteRequest): Promise<AutocompleteResponse> {
    await this.policy.search(ctx, request.entityType);
    const result = await this.index.autocomplete(request);
    const keep = await this.readableSet(ctx, result.entities);
    if (keep === undefined) return result;
    const entities = result.entities.filter((urn) => keep.has(urn));
    return { entities, suggestions: entities.length === result.entities.length ? result.suggestions : [] };
  }

  /** The entities on the other side of an entity's edges; the entity itself must be readable. */
  async related(ctx: RequestContext, request: RelatedRequest): Promise<RelatedResponse> {
    await this.policy.readEntity(ctx, request.urn);
    const result = await this.graph.related(request);
    const keep = await this.readableSet(
      ctx,
      result.relationships.map((r) => r.entity),
    );
    return keep === undefined
      ? result
      : { ...result, relationships: result.relationships.filter((r) => keep.has(r.entity)) };
  }

  /** The browse paths of an entity's search document (none when it has no document). */
  async browsePaths(ctx: RequestContext, entityType: string, urn: string): Promise<readonly string[]> {
    await this.policy.readEntity(ctx, urn);
    const document = await this.index.getDocument(entityType, urn);
    const paths = document?.fields[BROWSE_PATHS_FIELD];
    return paths === undefined ? [] : (Array.isArray(paths) ? paths : [paths]).map(String);
  }

  /** The readable ones of `urns`, or undefined when all are (nothing to filter). */
  private async readableSet(ctx: RequestContext, urns: readonly string[]): Promise<Set<string> | undefined> {
    const readable = await this.policy.readable(ctx, urns);
    return readable.length === urns.length ? undefined : new Set(readable);
  }
}

function singleType(types: readonly string[] | undefined): string | undefined {
  return types !== undefined && types.length === 1 ? types[0] : undefined;
}
