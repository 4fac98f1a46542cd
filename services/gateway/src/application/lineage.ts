import type { RequestContext } from '@catalog/auth';
import type {
  Aggregation,
  Filter,
  GraphIndex,
  RelatedRequest,
  RelatedResponse,
  SearchHit,
  SearchRequest,
} from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import type { EntitySearch } from './entity-search.js';
import {
  checkGraphFilter,
  facetFieldsOf,
  entityTypeOf,
  fieldPathOf,
  groupReached,
  matchesGraphFilter,
  splitDegreeFilter,
  walkFlags,
  withUrns,
} from './lineage-filters.js';
import {
  LineageWalk,
  schemaFieldParent,
  type IgnoredHop,
  type LineageDirection,
  type ReachedEntity,
} from './lineage-walk.js';

type Relationship = RelatedResponse['relationships'][number];

export { LINEAGE_RELATIONSHIPS, type LineageDirection } from './lineage-walk.js';

/** Entities of a lineage search read from the search index at most (its urn filter). */
const MAX_CANDIDATES = 5_000;
/** Values per facet when the request names no maximum (the ecosystem's maxAggValues default). */
const DEFAULT_AGG_VALUES = 20;
/** Parent datasets whose schemaMetadata an AUTO validation reads at most. */
const AUTO_VALIDATION_PARENTS = 1_000;

/** An entity one hop away: the edge's relationship, who made it when, and the path to it. */
export interface LineageNeighbour {
  readonly type: string;
  readonly entity: string;
  readonly created?: { readonly time: number; readonly actor: string };
  readonly path: readonly string[];
}

/** How a lineage query walks: hops through ignored entity types, a time window on the edges, a per-hop limit. */
export interface LineageFlags {
  readonly ignoreAsHops?: readonly IgnoredHop[];
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly entitiesExploredPerHopLimit?: number;
}

/** A lineage search: entities reached from `urn` that match the query, filter and types. */
export interface LineageSearchRequest {
  readonly urn: string;
  readonly direction: LineageDirection;
  /** Registry entity types asked for. */
  readonly entityTypes: readonly string[];
  readonly query: string;
  /** The search filter; `degree` criteria (values 1, 2, 3+) choose the hop counts shown. */
  readonly filter: Filter;
  readonly start: number;
  readonly count: number;
  readonly sort?: SearchRequest['sort'];
  readonly includeRemoved?: boolean;
  /**
   * Whether to aggregate the entities found: the filterable fields of the types found and `degree`
   * (how many at 1, 2, 3+ hops).
   */
  readonly facets?: boolean;
  readonly maxAggValues?: number;
  readonly lineageFlags?: LineageFlags;
  /** Schema fields shown as the datasets holding them (the ecosystem's default), or as themselves. */
  readonly schemaFieldsAsDatasets?: boolean;
}

export interface LineageHit extends SearchHit {
  readonly degree: number;
  /** Every hop count the entity is reached at (a dataset through several of its columns). */
  readonly degrees: readonly number[];
  /** The shortest paths to it, source first, jobs and queries edges went through included. */
  readonly paths: readonly (readonly string[])[];
  readonly ignoredAsHop: boolean;
  readonly explored: boolean;
  readonly truncatedChildren: boolean;
}

export interface LineageSearchPage {
  readonly total: number;
  readonly hits: readonly LineageHit[];
  /** The index's facet counts over every entity found, and how many were found at each degree. */
  readonly aggregations: readonly Aggregation[];
  /** The walk stopped at its bound, or more entities were reached than one search can narrow to. */
  readonly partial: boolean;
  /** The index's page before unreadable hits were left out: where a scroll continues. */
  readonly scanned: { readonly count: number; readonly total: number };
}

export type SchemaFieldValidation = 'NONE' | 'AUTO' | 'ALWAYS';

/** A count of what lineage reaches from `urn`. */
export interface LineageCountRequest {
  readonly urn: string;
  readonly direction: LineageDirection;
  /** Registry entity types counted; empty: every type. */
  readonly entityTypes: readonly string[];
  readonly filter: Filter;
  readonly lineageFlags?: LineageFlags;
  /**
   * Count off the graph: every entity an edge reaches, stored or not. Otherwise only what the search
   * index holds is counted.
   */
  readonly includeGhostEntities: boolean;
  readonly includeSoftDeleted?: boolean;
  /** Off the graph: whether a schema field must still be declared by its parent's schemaMetadata. */
  readonly validateSchemaFields: SchemaFieldValidation;
}

/**
 * Relationships and lineage of entities, as the actor may see them. An entity the actor may not read
 * shows no relationships; a related or reached entity it may not read is left out of the page (each
 * decided as a single read of it would be, one batch per page). Lineage is followed through entities
 * the actor may not read, as the ecosystem's graph does; only what is shown is decided.
 */
export class Lineage {
  private readonly walker: LineageWalk;

  constructor(
    private readonly graph: GraphIndex,
    private readonly search: EntitySearch,
    private readonly policy: AccessPolicy,
    private readonly store: AspectStore,
  ) {
    this.walker = new LineageWalk(graph, store);
  }

  /** One page of the entity's relationships of `types` in a direction. */
  async related(ctx: RequestContext, request: RelatedRequest): Promise<RelatedResponse> {
    if (!(await this.policy.mayRead(ctx, request.urn))) return { total: 0, relationships: [] };
    const response = await this.graph.related(request);
    const relationships = await this.readable(ctx, response.relationships);
    return {
      total: response.total - (response.relationships.length - relationships.length),
      relationships,
    };
  }

  /**
   * One page of the entities one hop up- or downstream of the entity (column lineage for a schema
   * field), each with the edge that leads there and its path (through the query or job the edge went
   * through). Entities the actor may not read are left out, of the page and of the paths.
   */
  async neighbours(
    ctx: RequestContext,
    urn: string,
    direction: LineageDirection,
    page: { readonly start: number; readonly count: number },
  ): Promise<{ readonly total: number; readonly relationships: readonly LineageNeighbour[] }> {
    if (!(await this.policy.mayRead(ctx, urn))) return { total: 0, relationships: [] };
    const steps = (await this.walker.steps([urn], direction)).get(urn) ?? [];
    const shown = new Set(
      ctx.authentication.isSystem
        ? [...steps.map((s) => s.entity), ...steps.flatMap((s) => (s.via === undefined ? [] : [s.via]))]
        : await this.policy.readable(ctx, [
            ...new Set([
              ...steps.map((s) => s.entity),
              ...steps.flatMap((s) => (s.via === undefined ? [] : [s.via])),
            ]),
          ]),
    );
    const found = steps
      .filter((s) => shown.has(s.entity))
      .map((s) => ({
        type: s.type,
        entity: s.entity,
        ...(s.createdAt !== undefined && s.createdActor !== undefined
          ? { created: { time: s.createdAt, actor: s.createdActor } }
          : {}),
        path: [urn, ...(s.via !== undefined && shown.has(s.via) ? [s.via] : []), s.entity],
      }));
    return { total: found.length, relationships: found.slice(page.start, page.start + page.count) };
  }

  /**
   * Searches the entities lineage reaches from `urn`, each with its hop count and the paths to it. The
   * walk goes as deep as the `degree` filter asks (1, 2, or every hop for 3+ or none); the page comes
   * from the search index among the entities reached. Entities the actor may not read are left out of
   * the page and of the paths.
   */
  async searchAcross(ctx: RequestContext, request: LineageSearchRequest): Promise<LineageSearchPage> {
    const nothing = { total: 0, hits: [], aggregations: [], partial: false, scanned: { count: 0, total: 0 } };
    const { filter, degrees: wantDegree, maxHops } = splitDegreeFilter(request.filter);
    if (!(await this.policy.mayRead(ctx, request.urn))) return nothing;
    const reach = await this.walker.walk(request.urn, request.direction, {
      maxHops,
      ...walkFlags(request.lineageFlags),
    });
    const shown = new Map(
      [...groupReached(reach.entities, request.schemaFieldsAsDatasets ?? true)].filter(
        ([urn, r]) => urn !== request.urn && wantDegree(r.degree),
      ),
    );
    if (shown.size === 0) return nothing;
    const types = new Set([...shown.keys()].map(entityTypeOf));
    const wanted = request.entityTypes.filter((e) => types.has(e));
    if (wanted.length === 0) return nothing;
    const candidates = [...shown.keys()].slice(0, MAX_CANDIDATES);
    const page = await this.search.search(ctx, {
      entityTypes: wanted,
      input: request.query.trim() ? request.query : '*',
      filter: withUrns(filter, candidates),
      start: request.start,
      count: request.count,
      ...(request.sort === undefined ? {} : { sort: request.sort }),
      ...(request.includeRemoved === undefined ? {} : { includeRemoved: request.includeRemoved }),
      // The urn aggregation tells which entities matched, for the degree counts.
      ...(request.facets !== true
        ? {}
        : {
            facets: [...facetFieldsOf(wanted), 'urn'],
            maxAggValues: Math.max(request.maxAggValues ?? DEFAULT_AGG_VALUES, candidates.length),
          }),
    });
    const onPaths = new Set<string>();
    for (const hit of page.hits)
      for (const p of shown.get(hit.urn)?.paths ?? []) for (const u of p) onPaths.add(u);
    const readable = ctx.authentication.isSystem
      ? onPaths
      : new Set(await this.policy.readable(ctx, [...onPaths]));
    return {
      total: page.total,
      hits: page.hits.map((hit) => {
        const r = shown.get(hit.urn);
        return {
          ...hit,
          degree: r?.degree ?? 1,
          degrees: r?.degrees ?? [1],
          paths: (r?.paths ?? []).map((p) => p.filter((u) => readable.has(u))),
          ignoredAsHop: r?.ignoredAsHop ?? false,
          explored: r?.explored ?? false,
          truncatedChildren: r?.truncatedChildren ?? false,
        };
      }),
      aggregations:
        request.facets !== true
          ? []
          : lineageAggregations(page.aggregations, facetFieldsOf(wanted), shown, request.maxAggValues),
      partial: reach.partial || shown.size > MAX_CANDIDATES,
      scanned: { count: page.scanned.count, total: page.scanned.total },
    };
  }

  /**
   * How many entities lineage reaches from `urn`. Off the graph (`includeGhostEntities`) every entity an
   * edge reaches is counted, stored or not, and only filters a urn answers (degree, platform, parent,
   * entity type, urn) can apply: others are refused. Otherwise the count is the search index's among
   * the entities reached. Totals are the index's or the graph's, as for any page.
   */
  async countAcross(ctx: RequestContext, request: LineageCountRequest): Promise<number> {
    const { filter, degrees: wantDegree, maxHops } = splitDegreeFilter(request.filter);
    if (request.includeGhostEntities) checkGraphFilter(filter);
    if (!(await this.policy.mayRead(ctx, request.urn))) return 0;
    const reach = await this.walker.walk(request.urn, request.direction, {
      maxHops,
      ...walkFlags(request.lineageFlags),
    });
    const types = new Set(request.entityTypes);
    const candidates = [...reach.entities.values()].filter(
      (r) =>
        r.urn !== request.urn && wantDegree(r.degree) && (types.size === 0 || types.has(entityTypeOf(r.urn))),
    );
    if (candidates.length === 0) return 0;
    if (!request.includeGhostEntities) {
      const inTypes = [...new Set(candidates.map((r) => entityTypeOf(r.urn)))];
      const page = await this.search.search(ctx, {
        entityTypes: inTypes,
        input: '*',
        filter: withUrns(
          filter,
          candidates.slice(0, MAX_CANDIDATES).map((r) => r.urn),
        ),
        start: 0,
        count: 0,
        ...(request.includeSoftDeleted === true ? { includeRemoved: true } : {}),
      });
      return page.total;
    }
    const matching = candidates.filter((r) => matchesGraphFilter(r, filter));
    return (await this.declared(matching, request.validateSchemaFields)).length;
  }

  /** Those of `reached` that exist as far as the mode asks: schema fields their parent's schema declares. */
  private async declared(
    reached: readonly ReachedEntity[],
    mode: SchemaFieldValidation,
  ): Promise<readonly ReachedEntity[]> {
    if (mode === 'NONE') return reached;
    const parents = [
      ...new Set(reached.map((r) => schemaFieldParent(r.urn)).filter((p): p is string => p !== undefined)),
    ];
    if (parents.length === 0 || (mode === 'AUTO' && parents.length > AUTO_VALIDATION_PARENTS)) return reached;
    const declared = new Map<string, Set<string>>();
    for (const [urn, stored] of await this.store.getLatestMany(parents, ['schemaMetadata'])) {
      const fields = stored.find((s) => s.aspect === 'schemaMetadata')?.value['fields'];
      const paths = new Set<string>();
      if (Array.isArray(fields))
        for (const f of fields as unknown[])
          if (
            typeof f === 'object' &&
            f !== null &&
            typeof (f as { fieldPath?: unknown }).fieldPath === 'string'
          )
            paths.add((f as { fieldPath: string }).fieldPath);
      declared.set(urn, paths);
    }
    return reached.filter((r) => {
      const parent = schemaFieldParent(r.urn);
      if (parent === undefined) return true;
      return declared.get(parent)?.has(fieldPathOf(r.urn)) === true;
    });
  }

  private async readable(
    ctx: RequestContext,
    relationships: readonly Relationship[],
  ): Promise<readonly Relationship[]> {
    if (ctx.authentication.isSystem || relationships.length === 0) return relationships;
    const readable = new Set(
      await this.policy.readable(
        ctx,
        relationships.map((r) => r.entity),
      ),
    );
    return readable.size === relationships.length
      ? relationships
      : relationships.filter((r) => readable.has(r.entity));
  }
}

/**
 * The facets asked for, cut to their maximum, and `degree`: how many of the entities found (the urn
 * aggregation lists them) are at 1, 2, and 3 or more hops.
 */
function lineageAggregations(
  found: readonly Aggregation[],
  facets: readonly string[],
  shown: ReadonlyMap<string, { readonly degree: number }>,
  maxAggValues: number | undefined,
): Aggregation[] {
  const limit = maxAggValues ?? DEFAULT_AGG_VALUES;
  const degrees = new Map<string, number>();
  for (const { value } of found.find((a) => a.field === 'urn')?.values ?? []) {
    const degree = shown.get(value)?.degree;
    if (degree === undefined) continue;
    const bucket = degree > 2 ? '3+' : String(degree);
    degrees.set(bucket, (degrees.get(bucket) ?? 0) + 1);
  }
  return [
    ...found
      .filter((a) => facets.includes(a.field))
      .map((a) => ({ field: a.field, values: a.values.slice(0, limit) })),
    {
      field: 'degree',
      values: ['1', '2', '3+'].flatMap((value) => {
        const count = degrees.get(value);
        return count === undefined ? [] : [{ value, count }];
      }),
    },
  ];
}
