import type { RequestContext } from '@catalog/auth';
import { entityRegistry } from '@catalog/model';
import type { Filter, SearchIndex, SearchSlice, SearchSortValue, SortCriterion } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import type { AspectsByUrn, EntityReads } from './entity-reads.js';

/** The search shapes a page request is made of (domain data, re-exported for the interfaces). */
export type {
  Criterion,
  Filter,
  SearchSlice,
  SearchSortValue,
  SortCriterion,
  SortOrder,
} from '@catalog/search';

/** The facet the search counts entity types under. */
const ENTITY_TYPE_FACET = '_entityType';

/** One page of a list or scroll of entities (the OpenAPI entity list, the cross-entity scroll). */
export interface EntityPageRequest {
  /** The types listed; absent, every entity type. */
  readonly entityTypes?: readonly string[];
  /** Free text; '' or '*' matches every entity. */
  readonly query: string;
  readonly count: number;
  readonly sort: readonly SortCriterion[];
  /** Where the page continues: '' for the first page, else the previous page's `next`. */
  readonly after: string | readonly SearchSortValue[];
  readonly slice?: SearchSlice;
  readonly filter?: Filter;
  readonly includeSoftDeleted: boolean;
  /** Count the matches per entity type (the cross-entity scroll's `entity` facet). */
  readonly countEntityTypes: boolean;
  /** The aspects returned: null, none (urns only); undefined, every aspect; a list, those. */
  readonly aspects: readonly string[] | null | undefined;
}

export interface EntityPage {
  /** The entities of the page the actor may read, in the search's order. */
  readonly urns: readonly string[];
  /** Their aspects as the actor may see them (empty when the request asked for none). */
  readonly aspects: AspectsByUrn;
  /** Matches of the search, counted by the search index. */
  readonly total: number;
  /** Where the next page continues, when this one was full. */
  readonly next?: readonly SearchSortValue[];
  /** Matches per entity type, when counted. */
  readonly entityTypeCounts?: ReadonlyMap<string, number>;
}

/**
 * Lists and scrolls of entities. Decides: SEARCH on the type listed (or on every type), then each
 * entity of the page exactly as a single read of it (unreadable ones are left out of the page, not
 * refused); restricted aspects and soft-deleted property values are never returned (EntityReads). A
 * page with entities left out still continues where the search stopped, so no entity is skipped.
 */
export class EntityPages {
  constructor(
    private readonly search: SearchIndex,
    private readonly policy: AccessPolicy,
    private readonly entities: EntityReads,
  ) {}

  async page(ctx: RequestContext, request: EntityPageRequest): Promise<EntityPage> {
    const types = request.entityTypes;
    await this.policy.search(ctx, types?.length === 1 ? types[0] : undefined);
    const response = await this.search.search({
      ...(request.countEntityTypes
        ? { facets: [ENTITY_TYPE_FACET], maxAggValues: entityRegistry.entities().length }
        : {}),
      entityTypes: types ?? entityRegistry.entities().map((e) => e.name),
      input: request.query === '' ? '*' : request.query,
      start: 0,
      count: request.count,
      searchAfter: request.after,
      ...(request.sort.length > 0 ? { sort: request.sort } : {}),
      ...(request.slice === undefined ? {} : { slice: request.slice }),
      ...(request.filter === undefined ? {} : { filter: request.filter }),
      ...(request.includeSoftDeleted ? { includeRemoved: true } : {}),
    });
    const hits = response.hits.map((h) => h.urn);
    const read =
      request.aspects === null
        ? { urns: await this.entities.readable(ctx, hits), aspects: new Map() }
        : await this.entities.latestOfReadable(ctx, hits, request.aspects);
    const last = response.hits[response.hits.length - 1];
    const counted = response.aggregations.find((a) => a.field === ENTITY_TYPE_FACET);
    return {
      urns: read.urns,
      aspects: read.aspects,
      total: response.total,
      ...(hits.length === request.count && last !== undefined ? { next: last.sortValues ?? [last.urn] } : {}),
      ...(counted === undefined
        ? {}
        : { entityTypeCounts: new Map(counted.values.map((v) => [v.value, v.count])) }),
    };
  }
}
