import type { RequestContext } from '@catalog/auth';
import { entityRegistry, parseUrn, ValidationError } from '@catalog/model';
import type { SearchIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';

/** Urns one raw-document request may name. */
const MAX_URNS = 1_000;

/**
 * The search documents of entities as the index holds them, for operators debugging what a search
 * sees (the ecosystem's raw Elasticsearch documents): MANAGE_SYSTEM_OPERATIONS, as its operations
 * routes ask. Documents hold no restricted aspect (buildEntityDocument leaves them out).
 */
export class IndexDocuments {
  constructor(
    private readonly index: SearchIndex,
    private readonly policy: AccessPolicy,
  ) {}

  /** Each urn's document by urn; urns without a document (or of no entity type) are absent. */
  async raw(ctx: RequestContext, urns: readonly string[]): Promise<Record<string, Record<string, unknown>>> {
    await this.policy.systemOperation(ctx, 'get raw search documents');
    if (urns.length > MAX_URNS)
      throw new ValidationError(`At most ${MAX_URNS} urns per request, got ${urns.length}`);
    const parsed = [...new Set(urns)].map((urn) => parseUrn(urn));
    const out: Record<string, Record<string, unknown>> = {};
    for (const urn of parsed) {
      if (entityRegistry.getEntity(urn.entityType) === undefined) continue;
      const document = await this.index.getDocument(urn.entityType, urn.raw);
      if (document !== null) out[urn.raw] = { urn: document.urn, ...document.fields };
    }
    return out;
  }
}
