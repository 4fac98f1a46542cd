import type { RequestContext } from '@catalog/auth';
import {
  BROWSE_PATHS_FIELD,
  type AutocompleteRequest,
  type AutocompleteResponse,
  type BrowseRequest,
  type BrowseResponse,
  type SearchIndex,
  type SearchRequest,
} from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import type { Browse } from './browse.js';
import type { EntitySearch, SearchPage } from './entity-search.js';

/**
 * The Rest.li search actions (search, list, browse, autocomplete, browse paths): the ecosystem asks the
 * search privileges on the entity type first (READ on the entity for browse paths), then each page
 * leaves out the entities the actor may not read, as `EntitySearch` and `Browse` decide for every
 * interface.
 */
export class CatalogSearch {
  constructor(
    private readonly search: EntitySearch,
    private readonly browsing: Browse,
    private readonly index: SearchIndex,
    private readonly policy: AccessPolicy,
  ) {}

  async searchType(ctx: RequestContext, request: SearchRequest): Promise<SearchPage> {
    await this.policy.search(ctx, singleType(request.entityTypes));
    return this.search.search(ctx, request);
  }

  async browse(ctx: RequestContext, request: BrowseRequest): Promise<BrowseResponse> {
    await this.policy.search(ctx, request.entityType);
    return this.browsing.browse(ctx, request);
  }

  async autocomplete(ctx: RequestContext, request: AutocompleteRequest): Promise<AutocompleteResponse> {
    await this.policy.search(ctx, request.entityType);
    return this.search.autocomplete(ctx, request);
  }

  /** The browse paths of an entity's search document (none when it has no document). */
  async browsePaths(ctx: RequestContext, entityType: string, urn: string): Promise<readonly string[]> {
    await this.policy.readEntity(ctx, urn);
    const document = await this.index.getDocument(entityType, urn);
    const paths = document?.fields[BROWSE_PATHS_FIELD];
    return paths === undefined ? [] : (Array.isArray(paths) ? paths : [paths]).map(String);
  }
}

function singleType(types: readonly string[] | undefined): string | undefined {
  return types !== undefined && types.length === 1 ? types[0] : undefined;
}
