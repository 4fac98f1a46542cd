import type { RequestContext } from '@catalog/auth';
import { entityRegistry, ValidationError } from '@catalog/model';
import type { EdgeEndpointFilter, EdgeKey, EdgeMatch, GraphIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import { LINEAGE_RELATIONSHIPS, type LineageDirection } from './lineage.js';

/** Edge-scroll data, re-exported for the interfaces. */
export type { EdgeEndpointFilter, EdgeKey } from '@catalog/search';

/** Edges per page at most (the ecosystem's search limit). */
export const MAX_EDGES_PER_PAGE = 10_000;

/** Which way `source` and `destination` filters apply to the stored edges. */
export type EdgeDirection = 'INCOMING' | 'OUTGOING' | 'UNDIRECTED';

/**
 * A relationship scroll (the ecosystem's `POST /openapi/v3/relationship/scroll`). `source` and
 * `destination` are alternatives (any one passes; none: any entity). With OUTGOING they apply to the
 * stored edge's source and destination; with INCOMING the other way round (the entity asked about is
 * the edge's destination); UNDIRECTED, either way.
 */
export interface RelationshipScrollRequest {
  /** Relationship names (absent: all; empty: none). */
  readonly types?: readonly string[];
  readonly direction: EdgeDirection;
  readonly source: readonly EdgeEndpointFilter[];
  readonly destination: readonly EdgeEndpointFilter[];
  readonly count: number;
  readonly after?: EdgeKey;
}

/**
 * A lineage scroll (`POST /openapi/v3/lineage/scroll`): lineage edges with an endpoint among `urns`
 * (none: every lineage edge), optionally only those running `direction` from them.
 */
export interface LineageScrollRequest {
  readonly types: readonly string[];
  readonly urns: readonly string[];
  readonly direction?: LineageDirection;
  readonly count: number;
  readonly after?: EdgeKey;
}

export interface LineageEdge extends EdgeKey {
  readonly upstream: string;
  readonly downstream: string;
}

/** A page of edges; `next` is where the scroll continues (absent: it has ended). */
export interface EdgePage<E extends EdgeKey> {
  readonly edges: readonly E[];
  readonly next?: EdgeKey;
}

const typeOf = (urn: string): string => urn.split(':')[2] ?? '';

/**
 * Lineage edges by (source type, relationship, destination type), with whether the destination is the
 * upstream end: declared by an aspect of the source type with `isLineage` (the destination is upstream
 * unless `isUpstream` is false, as for Produces). `*` stands for any destination type.
 */
const LINEAGE_TRIPLETS = (() => {
  const triplets = new Map<string, boolean>();
  for (const entity of entityRegistry.entities())
    for (const spec of entity.aspects.values())
      for (const r of spec.relationships) {
        if (r.isLineage !== true) continue;
        const destinations = r.entityTypes !== undefined && r.entityTypes.length > 0 ? r.entityTypes : ['*'];
        for (const destination of destinations)
          triplets.set(`${entity.name}\u0000${r.name}\u0000${destination}`, r.isUpstream !== false);
      }
  return triplets;
})();

/** Whether the edge's destination is its upstream end; undefined when the edge is not lineage. */
function destinationIsUpstream(edge: EdgeKey): boolean | undefined {
  const prefix = `${typeOf(edge.source)}\u0000${edge.relationship}\u0000`;
  return LINEAGE_TRIPLETS.get(prefix + typeOf(edge.target)) ?? LINEAGE_TRIPLETS.get(`${prefix}*`);
}

/**
 * Scrolls of the graph's edges, as the actor may see them: an edge with an endpoint the actor may not
 * read is left out of the page (each decided as a single read of it, one batch per page). Pages stay on
 * the graph's positions, so leaving some out (or, for lineage, keeping one direction) skips nothing; a
 * page may then be shorter than asked, and only the one that ends the scroll has no `next`.
 */
export class EdgeScrolls {
  constructor(
    private readonly graph: GraphIndex,
    private readonly policy: AccessPolicy,
  ) {}

  async relationships(ctx: RequestContext, request: RelationshipScrollRequest): Promise<EdgePage<EdgeKey>> {
    checkCount(request.count);
    if (request.types !== undefined && request.types.length === 0) return { edges: [] };
    const source = request.source.length === 0 ? [{}] : request.source;
    const destination = request.destination.length === 0 ? [{}] : request.destination;
    const match: EdgeMatch[] = [];
    for (const s of source)
      for (const d of destination) {
        if (request.direction !== 'INCOMING') match.push(edgeMatch(s, d));
        if (request.direction !== 'OUTGOING') match.push(edgeMatch(d, s));
      }
    const anything = match.every((m) => m.source === undefined && m.target === undefined);
    const found = await this.graph.scrollEdges({
      types: request.types ?? [],
      match: anything ? [] : match,
      count: request.count,
      ...(request.after ? { after: request.after } : {}),
    });
    return { edges: await this.readable(ctx, found), ...nextOf(found, request.count) };
  }

  async lineage(ctx: RequestContext, request: LineageScrollRequest): Promise<EdgePage<LineageEdge>> {
    checkCount(request.count);
    const lineageTypes = new Set([...LINEAGE_RELATIONSHIPS.upstream, ...LINEAGE_RELATIONSHIPS.downstream]);
    const types =
      request.types.length === 0 ? [...lineageTypes] : request.types.filter((t) => lineageTypes.has(t));
    if (types.length === 0) return { edges: [] };
    const urns = [...new Set(request.urns)];
    const found = await this.graph.scrollEdges({
      types,
      match: urns.length === 0 ? [] : [{ source: { urns } }, { target: { urns } }],
      count: request.count,
      ...(request.after ? { after: request.after } : {}),
    });
    const anchors = new Set(urns);
    const lineage: LineageEdge[] = [];
    for (const edge of found) {
      const upstreamIsTarget = destinationIsUpstream(edge);
      if (upstreamIsTarget === undefined) continue;
      const upstream = upstreamIsTarget ? edge.target : edge.source;
      const downstream = upstreamIsTarget ? edge.source : edge.target;
      // The direction is relative to the anchors: nothing to orient from without them.
      if (request.direction !== undefined && anchors.size > 0) {
        const anchor = request.direction === 'UPSTREAM' ? downstream : upstream;
        if (!anchors.has(anchor)) continue;
      }
      lineage.push({ ...edge, upstream, downstream });
    }
    return { edges: await this.readable(ctx, lineage), ...nextOf(found, request.count) };
  }

  private async readable<E extends EdgeKey>(ctx: RequestContext, edges: readonly E[]): Promise<E[]> {
    if (ctx.authentication.isSystem || edges.length === 0) return [...edges];
    const readable = new Set(
      await this.policy.readable(ctx, [...new Set(edges.flatMap((e) => [e.source, e.target]))]),
    );
    return edges.filter((e) => readable.has(e.source) && readable.has(e.target));
  }
}

function edgeMatch(source: EdgeEndpointFilter, target: EdgeEndpointFilter): EdgeMatch {
  return {
    ...(isAny(source) ? {} : { source }),
    ...(isAny(target) ? {} : { target }),
  };
}

const isAny = (filter: EdgeEndpointFilter): boolean =>
  filter.urns === undefined && filter.entityTypes === undefined;

/** A full page may have more after it: its last edge is where the next one starts. */
function nextOf(found: readonly EdgeKey[], count: number): { next?: EdgeKey } {
  const last = found[found.length - 1];
  return found.length === count && last !== undefined
    ? { next: { source: last.source, relationship: last.relationship, target: last.target } }
    : {};
}

function checkCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_EDGES_PER_PAGE)
    throw new ValidationError(`count must be between 1 and ${MAX_EDGES_PER_PAGE}, got ${count}`);
}
