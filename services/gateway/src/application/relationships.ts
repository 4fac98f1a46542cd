import type { RequestContext } from '@catalog/auth';
import type { GraphIndex, RelatedRequest, RelatedResponse } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';

/** A relationships query (domain data, re-exported for the interfaces). */
export type { RelatedRequest } from '@catalog/search';

/** One page of related entities as the actor may see it. */
export interface RelatedPage {
  /** Relationships the graph holds for the query. */
  readonly total: number;
  /** How many relationships of the graph this page covered (readable or not): where the next page starts. */
  readonly covered: number;
  readonly relationships: RelatedResponse['relationships'];
}

/**
 * The entities related to one entity. Decides reading the entity asked about (403, as its single
 * read), then each related entity as a single read of it: those the actor may not read are left out of
 * the page. Paging stays on the graph's positions (`covered`), so leaving some out skips nothing.
 */
export class Relationships {
  constructor(
    private readonly graph: GraphIndex,
    private readonly policy: AccessPolicy,
  ) {}

  async related(ctx: RequestContext, request: RelatedRequest): Promise<RelatedPage> {
    await this.policy.readEntity(ctx, request.urn);
    const found = await this.graph.related(request);
    const readable = new Set(
      await this.policy.readable(ctx, [...new Set(found.relationships.map((r) => r.entity))]),
    );
    return {
      total: found.total,
      covered: found.relationships.length,
      relationships: found.relationships.filter((r) => readable.has(r.entity)),
    };
  }
}
