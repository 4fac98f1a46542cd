import type { RequestContext } from '@catalog/auth';
import { entityRegistry } from '@catalog/model';
import type { Filter, GraphIndex, RelatedRequest, RelatedResponse, SearchHit } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import type { EntitySearch } from './entity-search.js';

type Relationship = RelatedResponse['relationships'][number];

/**
 * The relationship names of lineage edges in the registry, split by the way they point: most point
 * upstream (a dataset is DownstreamOf its source; a job Consumes its input), some downstream (a job
 * Produces its output).
 */
export const LINEAGE_RELATIONSHIPS = (() => {
  const upstream = new Set<string>();
  const downstream = new Set<string>();
  for (const entity of entityRegistry.entities())
    for (const spec of entity.aspects.values())
      for (const r of spec.relationships)
        if (r.isLineage === true) (r.isUpstream === false ? downstream : upstream).add(r.name);
  return { upstream: [...upstream].sort(), downstream: [...downstream].sort() } as const;
})();

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

/** How far lineage is followed: the ecosystem's UI asks for up to three hops. */
const MAX_HOPS = 3;
/** Entities reached at most, so one hub dataset cannot make a request unbounded (nor its urn filter). */
const MAX_REACHED = 1_000;
/** Edges of one entity read for its one-hop lineage page. */
const MAX_NEIGHBOURS = 10_000;

/** A lineage search: entities reached from `urn` that match the query, filter and types. */
export interface LineageSearchRequest {
  readonly urn: string;
  readonly direction: LineageDirection;
  /** Registry entity types asked for. */
  readonly entityTypes: readonly string[];
  readonly query: string;
  readonly filter: Filter;
  readonly start: number;
  readonly count: number;
}

export interface LineageSearchPage {
  readonly total: number;
  readonly hits: readonly (SearchHit & { readonly degree: number })[];
  /** The index's page before unreadable hits were left out: where a scroll continues. */
  readonly scanned: { readonly count: number; readonly total: number };
}

/**
 * Relationships and lineage of entities, as the actor may see them. An entity the actor may not read
 * shows no relationships; a related or reached entity it may not read is left out of the page (each
 * decided as a single read of it would be, one batch per page). Lineage is followed through entities
 * the actor may not read, as the ecosystem's graph does; only what is shown is decided.
 */
export class Lineage {
  constructor(
    private readonly graph: GraphIndex,
    private readonly search: EntitySearch,
    private readonly policy: AccessPolicy,
  ) {}

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

  /** One page of the entities one hop up- or downstream of the entity, with the edges that lead there. */
  async neighbours(
    ctx: RequestContext,
    urn: string,
    direction: LineageDirection,
    page: { readonly start: number; readonly count: number },
  ): Promise<{ readonly total: number; readonly relationships: readonly Relationship[] }> {
    if (!(await this.policy.mayRead(ctx, urn))) return { total: 0, relationships: [] };
    const up = direction === 'UPSTREAM';
    const ask = async (edgeDirection: 'INCOMING' | 'OUTGOING', types: readonly string[]) =>
      types.length === 0
        ? []
        : (
            await this.graph.related({
              urn,
              direction: edgeDirection,
              types,
              start: 0,
              count: MAX_NEIGHBOURS,
            })
          ).relationships;
    const found = await this.readable(ctx, [
      ...(await ask(up ? 'OUTGOING' : 'INCOMING', LINEAGE_RELATIONSHIPS.upstream)),
      ...(await ask(up ? 'INCOMING' : 'OUTGOING', LINEAGE_RELATIONSHIPS.downstream)),
    ]);
    return { total: found.length, relationships: found.slice(page.start, page.start + page.count) };
  }

  /** Searches the entities lineage reaches from `urn` (up to three hops), each with its hop count. */
  async searchAcross(ctx: RequestContext, request: LineageSearchRequest): Promise<LineageSearchPage> {
    const nothing = { total: 0, hits: [], scanned: { count: 0, total: 0 } };
    if (!(await this.policy.mayRead(ctx, request.urn))) return nothing;
    const degrees = await this.degrees(request.urn, request.direction);
    if (degrees.size === 0) return nothing;
    const reached = new Set([...degrees.keys()].map((u) => u.split(':')[2] ?? ''));
    const wanted = request.entityTypes.filter((e) => reached.has(e));
    if (wanted.length === 0) return nothing;
    const among = { field: 'urn', values: [...degrees.keys()], condition: 'EQUAL' as const };
    const conjunctions = request.filter.or.length === 0 ? [{ and: [] }] : request.filter.or;
    const page = await this.search.search(ctx, {
      entityTypes: wanted,
      input: request.query.trim() ? request.query : '*',
      filter: { or: conjunctions.map((c) => ({ and: [...c.and, among] })) },
      start: request.start,
      count: request.count,
    });
    return {
      total: page.total,
      hits: page.hits.map((hit) => ({ ...hit, degree: degrees.get(hit.urn) ?? 1 })),
      scanned: { count: page.scanned.count, total: page.scanned.total },
    };
  }

  /** The entities lineage reaches from `urn`, by the hop count they are first reached at. */
  private async degrees(urn: string, direction: LineageDirection): Promise<Map<string, number>> {
    const up = direction === 'UPSTREAM';
    const degrees = new Map<string, number>();
    let frontier = [urn];
    for (let hop = 1; hop <= MAX_HOPS && frontier.length > 0 && degrees.size < MAX_REACHED; hop++) {
      const next: string[] = [];
      for (const from of frontier) {
        const asks: ['INCOMING' | 'OUTGOING', readonly string[]][] = [
          [up ? 'OUTGOING' : 'INCOMING', LINEAGE_RELATIONSHIPS.upstream],
          [up ? 'INCOMING' : 'OUTGOING', LINEAGE_RELATIONSHIPS.downstream],
        ];
        for (const [edgeDirection, types] of asks) {
          if (types.length === 0) continue;
          const related = await this.graph.related({
            urn: from,
            direction: edgeDirection,
            types,
            start: 0,
            count: MAX_REACHED,
          });
          for (const r of related.relationships) {
            if (r.entity === urn || degrees.has(r.entity)) continue;
            degrees.set(r.entity, hop);
            next.push(r.entity);
          }
        }
      }
      frontier = next;
    }
    return degrees;
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
