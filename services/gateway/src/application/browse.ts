import type { RequestContext } from '@catalog/auth';
import type { BrowseRequest, BrowseResponse, Criterion, Filter, SearchIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';

export type { BrowseRequest, BrowseResponse } from '@catalog/search';

/** Distinct browse paths read per level: a folder with more distinct paths below it lists the first ones. */
const MAX_PATHS = 10_000;
const BROWSE_V2_FIELD = 'browsePathV2';

/** What `folders` asks: the folder (path segments), the entity types, and the caller's filter and query. */
export interface FoldersRequest {
  readonly entityTypes: readonly string[];
  readonly path: readonly string[];
  readonly filter: Filter;
  readonly query: string;
  readonly start: number;
  readonly count: number;
}

/** The folders one level below a browse path, with the entities at or below each. */
export interface Folders {
  readonly groups: readonly {
    readonly name: string;
    readonly count: number;
    readonly hasSubGroups: boolean;
  }[];
  /** Folders in all (before paging). */
  readonly total: number;
  /** Entities at or below the path. */
  readonly totalNumEntities: number;
}

/**
 * Browsing entities by their browse paths, as the actor may see them: the entities listed in a folder
 * are decided each as a single read of it would be (those the actor may not read are left out); folder
 * names and counts are the index's aggregation and list no entity.
 */
export class Browse {
  constructor(
    private readonly index: SearchIndex,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * The legacy browse (`browsePaths`): the groups below `path` and the entities listed at it. Its
   * `totalNumEntities` is the ecosystem's: the entities inside the groups, not those listed at `path`
   * (a folder of entities only has 0).
   */
  async browse(ctx: RequestContext, request: BrowseRequest): Promise<BrowseResponse> {
    const indexed = await this.index.browse(request);
    const response = {
      ...indexed,
      totalNumEntities: Math.max(0, indexed.totalNumEntities - indexed.totalEntities),
    };
    if (ctx.authentication.isSystem || response.entities.length === 0) return response;
    const readable = new Set(
      await this.policy.readable(
        ctx,
        response.entities.map((e) => e.urn),
      ),
    );
    const entities = response.entities.filter((e) => readable.has(e.urn));
    return {
      ...response,
      entities,
      totalEntities: response.totalEntities - (response.entities.length - entities.length),
    };
  }

  /**
   * browseV2 over the `browsePathsV2` of entities: the folders one level below `path`. The index holds
   * each entity's path as one keyword; the folders are the next segment of the paths below `path`,
   * counted from a facet over those paths.
   */
  async folders(_ctx: RequestContext, request: FoldersRequest): Promise<Folders> {
    const prefix = request.path.map((p) => `/${p}`).join('');
    // The entities in the folder itself or anywhere below it (every conjunction, once with each).
    const within: readonly Criterion[] =
      prefix === ''
        ? []
        : [
            { field: BROWSE_V2_FIELD, values: [prefix], condition: 'EQUAL' },
            { field: BROWSE_V2_FIELD, values: [`${prefix}/`], condition: 'START_WITH' },
          ];
    const base = request.filter;
    const conjunctions = base.or.length === 0 ? [{ and: [] as readonly Criterion[] }] : base.or;
    const filter = {
      or:
        within.length === 0
          ? conjunctions
          : conjunctions.flatMap((c) => within.map((criterion) => ({ and: [...c.and, criterion] }))),
    };
    const response = await this.index.search({
      entityTypes: request.entityTypes,
      input: request.query.trim() ? request.query : '*',
      filter,
      start: 0,
      count: 0,
      facets: [BROWSE_V2_FIELD],
      maxAggValues: MAX_PATHS,
    });
    const groups = new Map<string, { count: number; deeper: boolean }>();
    for (const value of response.aggregations.find((a) => a.field === BROWSE_V2_FIELD)?.values ?? []) {
      if (!value.value.startsWith(`${prefix}/`)) continue;
      const rest = value.value.slice(prefix.length + 1).split('/');
      const name = rest[0];
      if (name === undefined || name === '') continue;
      const group = groups.get(name) ?? { count: 0, deeper: false };
      group.count += value.count;
      group.deeper ||= rest.length > 1;
      groups.set(name, group);
    }
    const all = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      groups: all
        .slice(request.start, request.start + request.count)
        .map(([name, g]) => ({ name, count: g.count, hasSubGroups: g.deeper })),
      total: all.length,
      totalNumEntities: response.total,
    };
  }
}
