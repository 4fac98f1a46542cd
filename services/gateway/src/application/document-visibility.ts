import type { Criterion, Filter } from '@catalog/search';
import type { DocumentState } from './document-values.js';

/** The lifecycle stage that makes a document visible to everyone. */
export const PUBLISHED_STAGE = 'urn:li:lifecycleStageType:PUBLISHED';
/** The lifecycle stage no document search shows, not even to the document's owners. */
export const DRAFT_STAGE = 'urn:li:lifecycleStageType:DRAFT';

const equal = (field: string, values: readonly string[]): Criterion => ({
  field,
  values,
  condition: 'EQUAL',
});
const notEqual = (field: string, value: string): Criterion => ({
  field,
  values: [value],
  condition: 'EQUAL',
  negated: true,
});
const absent = (field: string): Criterion => ({ field, values: [], condition: 'EXISTS', negated: true });
const present = (field: string): Criterion => ({ field, values: [], condition: 'EXISTS' });

/** Who searches: the actor and its groups (owners of an unpublished document see it), and its privilege. */
export interface DocumentViewer {
  readonly actorAndGroups: readonly string[];
  /** MANAGE_DOCUMENTS: unpublished documents are visible without owning them. */
  readonly managesDocuments: boolean;
}

/**
 * The visibility filter of a document search (the ecosystem's DocumentSearchFilterUtils), the criteria of
 * the request in every clause. A document is visible when its lifecycle stage is PUBLISHED, or it has a
 * stage other than PUBLISHED and DRAFT and the viewer owns it (or manages documents); with no stage, by
 * its own state the same way (PUBLISHED to everyone, UNPUBLISHED to owners). `globalOnly` leaves out the
 * documents shown only beside their related assets (showInGlobalContext false); `states`, when it names
 * one state only, keeps the clauses of that state.
 */
export function documentSearchFilter(
  criteria: readonly Criterion[],
  viewer: DocumentViewer,
  options: { readonly globalOnly: boolean; readonly states?: readonly DocumentState[] | null },
): Filter {
  const states = options.states ?? [];
  const published = states.length === 0 || states.includes('PUBLISHED');
  const unpublished = states.length === 0 || states.includes('UNPUBLISHED');
  const owned = viewer.managesDocuments ? [] : [equal('owners', viewer.actorAndGroups)];
  const global = options.globalOnly ? [notEqual('showInGlobalContext', 'false')] : [];
  const clauses: Criterion[][] = [];
  if (published) clauses.push([...criteria, equal('lifecycleStage', [PUBLISHED_STAGE]), ...global]);
  if (unpublished)
    clauses.push([
      ...criteria,
      notEqual('lifecycleStage', PUBLISHED_STAGE),
      notEqual('lifecycleStage', DRAFT_STAGE),
      present('lifecycleStage'),
      ...owned,
      ...global,
    ]);
  if (published)
    clauses.push([...criteria, absent('lifecycleStage'), equal('state', ['PUBLISHED']), ...global]);
  if (unpublished)
    clauses.push([
      ...criteria,
      absent('lifecycleStage'),
      equal('state', ['UNPUBLISHED']),
      ...owned,
      ...global,
    ]);
  return { or: clauses.map((and) => ({ and })) };
}

/**
 * What a search across entity types that include documents adds (the ecosystem's DefaultEntityFiltersUtil):
 * documents published by their lifecycle stage, or without a stage and not UNPUBLISHED (unless the viewer
 * manages documents), and never those shown only beside their related assets. The criteria are negated
 * or absent ones, so entities of other types (which have neither field) pass.
 */
export function crossEntityDocumentFilter(managesDocuments: boolean): Filter {
  const global = notEqual('showInGlobalContext', 'false');
  return {
    or: [
      { and: [equal('lifecycleStage', [PUBLISHED_STAGE]), global] },
      {
        and: [
          absent('lifecycleStage'),
          ...(managesDocuments ? [] : [notEqual('state', 'UNPUBLISHED')]),
          global,
        ],
      },
    ],
  };
}

/** Both filters at once: every conjunction of `a` with every one of `b` (an absent or empty one is no filter). */
export function bothFilters(a: Filter | undefined, b: Filter): Filter {
  if (a === undefined || a.or.length === 0) return b;
  return { or: a.or.flatMap((x) => b.or.map((y) => ({ and: [...x.and, ...y.and] }))) };
}

/** The search criteria a document search or a related-documents page names. */
export interface DocumentCriteriaInput {
  readonly parentDocuments?: readonly string[] | null;
  readonly rootOnly?: boolean | null;
  readonly types?: readonly string[] | null;
  readonly domains?: readonly string[] | null;
  readonly relatedAssets?: readonly string[] | null;
  readonly sourceType?: 'NATIVE' | 'EXTERNAL' | null;
  readonly tags?: readonly string[] | null;
  readonly glossaryTerms?: readonly string[] | null;
  readonly creators?: readonly string[] | null;
  readonly platforms?: readonly string[] | null;
}

/** The criteria of the input: each list given and not empty is one criterion (any of its values). */
export function documentCriteria(input: DocumentCriteriaInput): Criterion[] {
  const criteria: Criterion[] = [];
  const listed = (field: string, values: readonly string[] | null | undefined) => {
    if (values !== undefined && values !== null && values.length > 0) criteria.push(equal(field, values));
  };
  if (
    input.parentDocuments !== undefined &&
    input.parentDocuments !== null &&
    input.parentDocuments.length > 0
  )
    listed('parentDocument', input.parentDocuments);
  else if (input.rootOnly === true) criteria.push(absent('parentDocument'));
  listed('typeNames', input.types);
  listed('domains', input.domains);
  listed('relatedAssets', input.relatedAssets);
  if (input.sourceType !== undefined && input.sourceType !== null)
    criteria.push(equal('sourceType', [input.sourceType]));
  listed('tags', input.tags);
  listed('glossaryTerms', input.glossaryTerms);
  listed('creator', input.creators);
  listed('platform', input.platforms);
  return criteria;
}
