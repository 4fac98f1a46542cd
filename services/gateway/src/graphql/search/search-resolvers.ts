import { entityRegistry, isUrn, ValidationError } from '@catalog/model';
import {
  normalizeFilter,
  type Filter,
  type SearchPage,
  type SearchResponse,
} from '../../application/entity-search.js';
import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';
import { DEFAULT_SEARCH_TYPES, ENTITY_TYPES, entityOfType, typeOfEntity } from '../entities/entity-types.js';

export interface FacetFilter {
  readonly field: string;
  readonly value?: string | null;
  readonly values?: readonly string[] | null;
  readonly negated?: boolean | null;
  readonly condition?: string | null;
}

interface SearchFlagsInput {
  readonly includeHiddenLifecycleStages?: boolean | null;
  readonly maxAggValues?: number | null;
  readonly skipAggregates?: boolean | null;
  readonly includeSoftDeleted?: boolean | null;
}

export interface SortInput {
  readonly sortCriterion?: { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' } | null;
  readonly sortCriteria?: readonly { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' }[] | null;
}

export interface AcrossInput {
  readonly types?: readonly string[] | null;
  readonly type?: string;
  readonly query: string;
  readonly start?: number | null;
  readonly count?: number | null;
  readonly scrollId?: string | null;
  readonly filters?: readonly FacetFilter[] | null;
  readonly orFilters?: readonly { and?: readonly FacetFilter[] | null }[] | null;
  readonly searchFlags?: SearchFlagsInput | null;
  readonly sortInput?: SortInput | null;
  readonly facets?: readonly (string | null)[] | null;
}

/** The largest page a GraphQL search serves, as the search port's result window. */
const MAX_COUNT = 10_000;
/** The ecosystem's separator of browsePathV2 entries; our index joins them with `/`. */
const BROWSE_V2_SEPARATOR = '\u241f';
const NESTED_FACET_SEPARATOR = '\u241e';

const ENTITY_TYPE_FIELD = '_entityType';

/**
 * An `_entityType` filter value as the index holds it (the registry name): clients send the EntityType
 * value (`DATASET`, as the SDK does) or the registry name (`dataset`); others are left as given.
 */
function entityNameOf(value: string): string {
  const named = ENTITY_TYPES.find((t) => t.value === value.toUpperCase() && t.entity !== '');
  if (named !== undefined) return named.entity;
  return entityRegistry.getEntity(value)?.name ?? value;
}

/** Registry entities of the EntityType values asked for; null or empty means the default searchable set. */
export function entitiesOf(types: readonly string[] | null | undefined): string[] {
  const values = types === null || types === undefined || types.length === 0 ? DEFAULT_SEARCH_TYPES : types;
  return [...new Set(values.map(entityOfType))];
}

/**
 * The search filter of GraphQL `orFilters` (or the older `filters`, one conjunction): `env` is the
 * dataset origin; container filters on `browsePathV2` use the ecosystem's `␟` separators.
 */
export function filterOf(input: {
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly { and?: readonly FacetFilter[] | null }[] | null;
}): Filter {
  const conjunctions =
    input.orFilters !== undefined && input.orFilters !== null && input.orFilters.length > 0
      ? input.orFilters.map((c) => c.and ?? [])
      : input.filters !== undefined && input.filters !== null && input.filters.length > 0
        ? [input.filters]
        : [];
  return normalizeFilter({
    or: conjunctions.map((and) => ({
      and: and.map((criterion) => {
        const field = criterion.field === 'env' ? 'origin' : criterion.field;
        const values =
          field.replace(/\.keyword$/, '') === ENTITY_TYPE_FIELD
            ? criterion.values?.map(entityNameOf)
            : field.replace(/\.keyword$/, '') === 'browsePathV2'
              ? (criterion.values ?? []).map((v) =>
                  v
                    .split(BROWSE_V2_SEPARATOR)
                    .filter((s) => s !== '')
                    .join('/'),
                )
              : criterion.values;
        const value =
          field.replace(/\.keyword$/, '') === ENTITY_TYPE_FIELD && typeof criterion.value === 'string'
            ? entityNameOf(criterion.value)
            : criterion.value;
        return {
          field,
          ...(values === undefined || values === null ? {} : { values }),
          ...(value === undefined || value === null ? {} : { value }),
          ...(criterion.negated === undefined || criterion.negated === null
            ? {}
            : { negated: criterion.negated }),
          ...(criterion.condition === undefined || criterion.condition === null
            ? {}
            : { condition: criterion.condition }),
        };
      }),
    })),
  });
}

function countOf(count: number | null | undefined, fallback = 10): number {
  const value = count ?? fallback;
  if (!Number.isInteger(value) || value < 0 || value > MAX_COUNT)
    throw new ValidationError(`count must be an integer from 0 to ${MAX_COUNT}, got ${value}`);
  return value;
}

function startOf(start: number | null | undefined): number {
  const value = start ?? 0;
  if (!Number.isInteger(value) || value < 0)
    throw new ValidationError(`start must be 0 or more, got ${value}`);
  return value;
}

export function sortOf(sort: SortInput | null | undefined) {
  const criteria = sort?.sortCriteria ?? (sort?.sortCriterion ? [sort.sortCriterion] : []);
  return criteria.map((c) => ({ field: c.field, order: c.sortOrder }));
}

/** Fields the ecosystem offers as facets by default: its filterable fields, and the entity type. */
function defaultFacets(entities: readonly string[]): string[] {
  const facets = new Set<string>(['_entityType']);
  for (const name of entities)
    for (const spec of entityRegistry.requireEntity(name).aspects.values())
      if (spec.kind === 'versioned')
        for (const field of spec.searchable) if (field.addToFilters === true) facets.add(field.fieldName);
  return [...facets];
}

function facetDisplayName(field: string): string {
  for (const entity of entityRegistry.entities())
    for (const spec of entity.aspects.values())
      for (const f of spec.searchable)
        if (f.fieldName === field && f.filterName !== undefined) return f.filterName;
  return field === '_entityType' ? 'Type' : field;
}

/** The aggregations of a search as GraphQL FacetMetadata. */
export function facetsOf(response: Pick<SearchResponse, 'aggregations'>) {
  return response.aggregations.map((aggregation) => ({
    field: aggregation.field === '_entityType' ? 'entity' : aggregation.field,
    displayName: facetDisplayName(aggregation.field),
    entity: null,
    aggregations: aggregation.values.map((v) => {
      const value = aggregation.field === '_entityType' ? typeOfEntity(v.value) : v.value;
      return {
        value,
        count: v.count,
        entity: isUrn(v.value) ? (refOf(v.value) ?? null) : null,
        displayName: value,
      };
    }),
  }));
}

/** Lists up to this long are completed in one go: a page of the UI, the SDK or a scroll of 1,000. */
const PACED_LIST_ABOVE = 1000;

/**
 * The hits as SearchResults. A long list has each released on its slice's turn of the event loop
 * (`budget.pace`): the executor completes the selections below a list item when the item resolves, so
 * ten thousand results are completed a slice per turn instead of in one. A page of ordinary length is
 * plain values, which the executor completes without a promise per item.
 */
function resultsOf(ctx: GraphQLContext, response: SearchResponse) {
  if (response.hits.length <= PACED_LIST_ABOVE) return response.hits.map(resultOf);
  return response.hits.map(async (hit) => {
    await ctx.budget.pace();
    return resultOf(hit);
  });
}

function resultOf(hit: SearchResponse['hits'][number]) {
  return {
    entity: { urn: hit.urn, entity: hit.entityType },
    insights: [],
    matchedFields: hit.matchedFields.map((m) => ({
      name: m.name,
      value: m.value,
      entity: isUrn(m.value) ? (refOf(m.value) ?? null) : null,
    })),
    extraProperties: [],
  };
}

export async function runSearch(
  ctx: GraphQLContext,
  input: AcrossInput,
  entities: readonly string[],
  page: { start: number; count: number; searchAfter?: string },
  facets: readonly string[] | undefined,
): Promise<SearchPage> {
  const flags = input.searchFlags ?? {};
  const query = input.query.trim() === '' ? '*' : input.query;
  await ctx.budget.takeTurn();
  const options = { includeHiddenLifecycleStages: flags.includeHiddenLifecycleStages === true };
  return ctx.services.app.documentSearch.across(
    ctx.auth,
    {
      entityTypes: entities,
      input: query,
      filter: filterOf(input),
      start: page.start,
      count: page.count,
      ...(facets === undefined || flags.skipAggregates === true ? {} : { facets }),
      ...(flags.maxAggValues === undefined || flags.maxAggValues === null
        ? {}
        : { maxAggValues: flags.maxAggValues }),
      ...(flags.includeSoftDeleted === true ? { includeRemoved: true } : {}),
      sort: sortOf(input.sortInput),
      ...(page.searchAfter === undefined ? {} : { searchAfter: page.searchAfter }),
    },
    options,
  );
}

/**
 * An opaque scroll position (base64url JSON): without a sort, the last urn returned and how many were
 * (keyset paging by urn: any depth, no entity repeated or skipped while writes happen); with a sort, the
 * next row (offset paging, within the search window).
 */
interface ScrollPosition {
  readonly after?: string;
  readonly seen?: number;
  readonly start?: number;
}

function encodeScroll(position: ScrollPosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeScroll(scrollId: string | null | undefined): ScrollPosition | undefined {
  if (scrollId === null || scrollId === undefined || scrollId === '') return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const { after, seen, start } = decoded;
    if (typeof after === 'string' && typeof seen === 'number' && Number.isInteger(seen) && seen >= 0)
      return { after, seen };
    if (typeof start === 'number' && Number.isInteger(start) && start >= 0) return { start };
  } catch {
    // fall through to the error below
  }
  throw new ValidationError(`Invalid scrollId ${JSON.stringify(scrollId)}`);
}

type QueryResolver = (root: unknown, args: { input: AcrossInput }, ctx: GraphQLContext) => Promise<unknown>;

/** A page of `search` or `searchAcrossEntities`: hits, the default facets, and no suggestions. */
export async function searchPage(ctx: GraphQLContext, input: AcrossInput, entities: readonly string[]) {
  const page = { start: startOf(input.start), count: countOf(input.count) };
  const response = await runSearch(ctx, input, entities, page, defaultFacets(entities));
  return {
    ...page,
    count: response.hits.length,
    total: response.total,
    searchResults: resultsOf(ctx, response),
    facets: facetsOf(response),
    suggestions: [],
  };
}

export function searchResolvers(): Record<string, Record<string, unknown>> {
  const query: Record<string, QueryResolver> = {
    search: async (_root, { input }, ctx) => searchPage(ctx, input, entitiesOf([input.type ?? ''])),
    searchAcrossEntities: async (_root, { input }, ctx) => searchPage(ctx, input, entitiesOf(input.types)),
    scrollAcrossEntities: async (_root, { input }, ctx) => {
      const entities = entitiesOf(input.types);
      const count = countOf(input.count);
      const position = decodeScroll(input.scrollId);
      const keyset = sortOf(input.sortInput).length === 0;
      if (position !== undefined && keyset !== (position.after !== undefined))
        throw new ValidationError('The scrollId belongs to a scroll with another sort');
      const page = keyset
        ? { start: 0, count, searchAfter: position?.after ?? '' }
        : { start: position?.start ?? 0, count };
      const response = await runSearch(ctx, input, entities, page, defaultFacets(entities));
      const hits = response.hits;
      // The scroll goes on from the index's page, hits the actor may not read included: they are left
      // out of what it is shown, not of where the next page starts.
      const { scanned } = response;
      const seen = (keyset ? (position?.seen ?? 0) : page.start) + scanned.count;
      const last = scanned.last;
      const more = scanned.count > 0 && seen < scanned.total && last !== undefined;
      return {
        // The SDK loops until this is null: an exhausted scroll must end it.
        nextScrollId: more ? encodeScroll(keyset ? { after: last.urn, seen } : { start: seen }) : null,
        count: hits.length,
        total: response.total,
        searchResults: resultsOf(ctx, response),
        facets: facetsOf(response),
      };
    },
    aggregateAcrossEntities: async (_root, { input }, ctx) => {
      const entities = entitiesOf(input.types);
      const asked = input.facets?.filter((f): f is string => typeof f === 'string');
      for (const facet of asked ?? [])
        if (facet.includes(NESTED_FACET_SEPARATOR))
          throw new ValidationError(`Nested facets are not supported: ${JSON.stringify(facet)}`);
      const facets =
        asked === undefined || asked.length === 0
          ? defaultFacets(entities)
          : asked.map((f) => (f === 'entity' ? '_entityType' : f));
      const response = await runSearch(
        ctx,
        { ...input, searchFlags: { ...input.searchFlags, skipAggregates: false } },
        entities,
        { start: 0, count: 0 },
        facets,
      );
      return { facets: facetsOf(response) };
    },
  };
  return {
    Query: {
      ...query,
      autoComplete: autoComplete,
      autoCompleteForMultiple: autoCompleteForMultiple,
      browse: browse,
    },
    VersionSet: {
      versionsSearch: async (set: { urn: string }, { input }: { input: AcrossInput }, ctx: GraphQLContext) =>
        searchPage(ctx, versionsInput(set.urn, input), entitiesOf(input.types ?? VERSIONED_TYPES)),
    },
  };
}

/** The entity types that have versions (versionProperties). */
const VERSIONED_TYPES = ['DATASET', 'MLMODEL'];

/**
 * A version set's versions search: the input's, narrowed to the versions linked to the set (every
 * conjunction), sorted by their sortId, highest first, unless the input sorts otherwise.
 */
function versionsInput(setUrn: string, input: AcrossInput): AcrossInput {
  const linked: FacetFilter = { field: 'versionSet', values: [setUrn], condition: 'EQUAL' };
  const conjunctions = filterOf(input).or.map((c) => ({ and: [...c.and, linked] as FacetFilter[] }));
  const sorted = sortOf(input.sortInput).length > 0;
  return {
    ...input,
    filters: null,
    orFilters: conjunctions.length === 0 ? [{ and: [linked] }] : conjunctions,
    ...(sorted ? {} : { sortInput: { sortCriteria: [{ field: 'versionSortId', sortOrder: 'DESCENDING' }] } }),
  };
}

interface AutoCompleteArgs {
  readonly input: {
    readonly type?: string | null;
    readonly types?: readonly string[] | null;
    readonly query: string;
    readonly field?: string | null;
    readonly limit?: number | null;
    readonly filters?: readonly FacetFilter[] | null;
    readonly orFilters?: readonly { and?: readonly FacetFilter[] | null }[] | null;
  };
}

async function suggest(ctx: GraphQLContext, entity: string, input: AutoCompleteArgs['input']) {
  await ctx.budget.takeTurn();
  const result = await ctx.services.app.search.autocomplete(ctx.auth, {
    entityType: entity,
    query: input.query,
    ...(input.field === undefined || input.field === null ? {} : { field: input.field }),
    filter: filterOf(input),
    limit: countOf(input.limit, 10),
  });
  return { suggestions: result.suggestions, entities: result.entities.flatMap((u) => refOf(u) ?? []) };
}

async function autoComplete(_root: unknown, { input }: AutoCompleteArgs, ctx: GraphQLContext) {
  const [entity] = entitiesOf(input.type === undefined || input.type === null ? ['DATASET'] : [input.type]);
  return { query: input.query, ...(await suggest(ctx, entity!, input)) };
}

async function autoCompleteForMultiple(_root: unknown, { input }: AutoCompleteArgs, ctx: GraphQLContext) {
  const entities = entitiesOf(input.types);
  const suggestions = await Promise.all(
    entities.map(async (entity) => ({ type: typeOfEntity(entity), ...(await suggest(ctx, entity, input)) })),
  );
  return { query: input.query, suggestions: suggestions.filter((s) => s.suggestions.length > 0) };
}

interface BrowseArgs {
  readonly input: {
    readonly type: string;
    readonly path?: readonly string[] | null;
    readonly start?: number | null;
    readonly count?: number | null;
    readonly filters?: readonly FacetFilter[] | null;
    readonly orFilters?: readonly { and?: readonly FacetFilter[] | null }[] | null;
  };
}

async function browse(_root: unknown, { input }: BrowseArgs, ctx: GraphQLContext) {
  const [entity] = entitiesOf([input.type]);
  const path = input.path ?? [];
  const start = startOf(input.start);
  const count = countOf(input.count);
  await ctx.budget.takeTurn();
  const result = await ctx.services.app.browse.browse(ctx.auth, {
    entityType: entity!,
    path: `/${path.join('/')}`,
    filter: filterOf(input),
    start,
    limit: count,
  });
  return {
    entities: result.entities.flatMap((e) => refOf(e.urn) ?? []),
    groups: result.groups.map((g) => ({ name: g.name, count: g.count })),
    start,
    count: result.entities.length,
    total: result.totalEntities,
    metadata: { path, totalNumEntities: result.totalNumEntities },
  };
}
