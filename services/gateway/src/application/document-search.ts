import type { RequestContext } from '@catalog/auth';
import { entityRegistry, ValidationError } from '@catalog/model';
import {
  normalizeFilter,
  type Aggregation,
  type Filter,
  type SearchRequest,
  type SortCriterion,
} from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import {
  bothFilters,
  crossEntityDocumentFilter,
  documentCriteria,
  documentSearchFilter,
  type DocumentCriteriaInput,
  type DocumentViewer,
} from './document-visibility.js';
import type { DocumentState } from './document-values.js';
import type { EntitySearch, SearchPage } from './entity-search.js';
import { requireUrnOfType } from './entity-urns.js';
import type { HiddenLifecycleStages } from './lifecycle-stages.js';
import type { StoredEntities } from './stored-entities.js';

const DOCUMENT = 'document';
const MANAGE_DOCUMENTS = ['MANAGE_DOCUMENTS'];
/** The largest page a document search serves (the search port's result window). */
const MAX_COUNT = 10_000;

/** Fields a document page counts values of: the document's filter fields, without the visibility ones. */
const FACETS: readonly string[] = (() => {
  const hidden = new Set(['state', 'lifecycleStage', 'showInGlobalContext']);
  const fields = new Set<string>();
  for (const spec of entityRegistry.requireEntity(DOCUMENT).aspects.values())
    if (spec.kind === 'versioned')
      for (const field of spec.searchable)
        if (field.addToFilters === true && !hidden.has(field.fieldName)) fields.add(field.fieldName);
  return [...fields];
})();

/** A searchDocuments request. */
export interface DocumentSearchInput extends DocumentCriteriaInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly query?: string | null;
  readonly states?: readonly DocumentState[] | null;
  /** A saved view whose filter narrows the search too. */
  readonly viewUrn?: string | null;
  readonly sort?: readonly SortCriterion[];
}

/** A page of documents the actor may see. */
export interface DocumentPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly urns: readonly string[];
  readonly aggregations: readonly Aggregation[];
}

/**
 * Finding documents: the document search (published ones for everyone, unpublished ones for their
 * owners and document managers, never drafts, never those shown only beside their assets), the documents
 * related to an asset (those too), and the default document filter of searches across entity types.
 * Each hit is then decided as a single read of it (EntitySearch).
 */
export class DocumentSearch {
  constructor(
    private readonly search: EntitySearch,
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly hiddenStages: HiddenLifecycleStages,
  ) {}

  async searchDocuments(ctx: RequestContext, input: DocumentSearchInput): Promise<DocumentPage> {
    const visible = documentSearchFilter(documentCriteria(input), await this.viewer(ctx), {
      globalOnly: true,
      states: input.states ?? null,
    });
    const view =
      input.viewUrn === undefined || input.viewUrn === null
        ? undefined
        : await this.viewFilter(ctx, input.viewUrn);
    const filter = view === undefined ? visible : bothFilters(view, visible);
    const sort = input.sort !== undefined && input.sort.length > 0 ? input.sort : [desc('createdAt')];
    return this.page(ctx, input, input.query ?? '*', filter, sort, 20);
  }

  /** The documents related to an asset, those shown only beside their assets included. */
  async relatedDocuments(
    ctx: RequestContext,
    assetUrn: string,
    input: DocumentCriteriaInput & { readonly start?: number | null; readonly count?: number | null },
  ): Promise<DocumentPage> {
    const criteria = documentCriteria({ ...input, relatedAssets: [assetUrn] });
    const filter = documentSearchFilter(criteria, await this.viewer(ctx), { globalOnly: false });
    return this.page(ctx, input, '*', filter, [desc('lastModifiedAt')], 100);
  }

  /**
   * A search across entity types as the catalog's search pages run it (searchAcrossEntities, scrolls,
   * aggregations), with the ecosystem's default filters unless hidden lifecycle stages are asked for:
   * entities in a stage that hides them from search are left out (unless the request filters on the
   * stage itself or searches stage types), and when documents are searched, the documents' default
   * filter applies.
   */
  async across(
    ctx: RequestContext,
    request: SearchRequest,
    options: { readonly includeHiddenLifecycleStages?: boolean },
  ): Promise<SearchPage> {
    if (options.includeHiddenLifecycleStages === true) return this.search.search(ctx, request);
    let filter = request.filter;
    const types = request.entityTypes;
    const staged = types.some((t) => entityRegistry.getEntity(t)?.aspects.has('status') === true);
    if (staged && !types.includes('lifecycleStageType') && !mentions(filter, 'lifecycleStage')) {
      const hidden = await this.hiddenStages.hiddenFor(types);
      if (hidden.length > 0) filter = bothFilters(filter, withoutStages(hidden));
    }
    if (types.includes(DOCUMENT))
      filter = bothFilters(filter, crossEntityDocumentFilter(await this.policy.holds(ctx, MANAGE_DOCUMENTS)));
    return this.search.search(ctx, filter === undefined ? request : { ...request, filter });
  }

  private async page(
    ctx: RequestContext,
    input: { readonly start?: number | null; readonly count?: number | null },
    query: string,
    filter: SearchRequest['filter'],
    sort: readonly SortCriterion[],
    defaultCount: number,
  ): Promise<DocumentPage> {
    const start = input.start ?? 0;
    const count = input.count ?? defaultCount;
    if (start < 0 || count < 0 || start + count > MAX_COUNT)
      throw new ValidationError(`start must be 0 or more and start + count at most ${MAX_COUNT}`);
    const page = await this.search.search(ctx, {
      entityTypes: [DOCUMENT],
      input: query.trim() === '' ? '*' : query,
      ...(filter === undefined ? {} : { filter }),
      start,
      count,
      sort,
      facets: FACETS,
    });
    return {
      start,
      count: page.hits.length,
      total: page.total,
      urns: page.hits.map((h) => h.urn),
      aggregations: page.aggregations,
    };
  }

  /** The filter of a saved view the actor may read; 400 when there is no such view. */
  private async viewFilter(ctx: RequestContext, viewUrn: string): Promise<Filter> {
    requireUrnOfType(viewUrn, 'dataHubView');
    await this.policy.readEntity(ctx, viewUrn);
    const info = await this.stored.aspect(viewUrn, 'dataHubViewInfo');
    if (info === undefined) throw new ValidationError(`View ${viewUrn} does not exist`);
    return normalizeFilter((info['definition'] as Record<string, unknown> | undefined)?.['filter']);
  }

  /** The actor, the groups it is a member of, and whether it manages documents. */
  private async viewer(ctx: RequestContext): Promise<DocumentViewer> {
    const actor = ctx.authentication.actorUrn;
    const values = await this.stored.values(actor);
    const groups = [
      ...listed(values.get('groupMembership')?.['groups']),
      ...listed(values.get('nativeGroupMembership')?.['nativeGroups']),
    ];
    return {
      actorAndGroups: [...new Set([actor, ...groups])],
      managesDocuments: await this.policy.holds(ctx, MANAGE_DOCUMENTS),
    };
  }
}

const desc = (field: string): SortCriterion => ({ field, order: 'DESCENDING' });

/** Whether a criterion of the filter is on the field (`.keyword` or not). */
function mentions(filter: Filter | undefined, field: string): boolean {
  return (filter?.or ?? []).some((c) => c.and.some((x) => x.field.replace(/\.keyword$/, '') === field));
}

/** Entities in none of the stages. */
function withoutStages(stages: readonly string[]): Filter {
  return {
    or: [
      {
        and: stages.map((stage) => ({
          field: 'lifecycleStage',
          values: [stage],
          condition: 'EQUAL',
          negated: true,
        })),
      },
    ],
  };
}

function listed(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
