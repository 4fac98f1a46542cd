import type { Types } from '@opensearch-project/opensearch';
import { REMOVED_FIELD, URN_FIELD } from '../document-fields.js';
import type { Aggregation, SearchHit, SearchRequest, SearchResponse } from '../port.js';
import { validateSearchRequest, type NormalizedSearch } from '../validate-search-request.js';
import { searchAfterOf, sortOf, sortValuesOf } from './entity-sort.js';
import { pathsOf, type ResolvedSpec } from './entity-specs.js';
import { META_FIELD, sortAliasPath, type FieldPaths } from './field-paths.js';
import { isStructuredPropertyField } from '../structured-property-fields.js';
import { exactValues, filterQuery, MATCH_ALL, type PathsLookup, type Query } from './filter-query.js';
import { fullTextFields, fullTextQuery, matchedFields } from './full-text-query.js';
import { asNumber, asObject, asString, totalHits } from './narrow.js';
import {
  aggregationsOf,
  bucketKey,
  bucketsOf,
  hitsOf,
  loadSpecs,
  pathsAcross,
  resolveStructured,
  type ReadContext,
} from './read-context.js';
import { sliceQuery } from './slice-query.js';

/** Runs a search: validated as the embedded adapter validates it, then one request over every alias. */
export async function runSearch(context: ReadContext, request: SearchRequest): Promise<SearchResponse> {
  const resolution = await resolveStructured(context, request);
  const { lookup, resolved } = await loadSpecs(
    context.specs,
    request.entityTypes ?? [],
    resolution.fields.length > 0 ? resolution.extend : undefined,
  );
  const search = validateSearchRequest(lookup, resolution.request);
  const indices = search.specs
    .map((spec) => resolved.get(spec.entityType))
    .filter((s): s is ResolvedSpec => s !== undefined);
  const lookupPaths = pathsAcross(indices);
  const textFields = fullTextFields(indices.map((spec) => [...spec.paths.values()]));
  const searchAfter = searchAfterOf(search);
  const response = await context.client.search({
    index: indices.map((spec) => spec.alias).join(','),
    body: {
      query: searchQuery(search, lookupPaths, textFields),
      from: search.start,
      size: search.count,
      track_total_hits: true,
      track_scores: true,
      sort: sortOf(search, indices, lookupPaths),
      ...(searchAfter === undefined ? {} : { search_after: searchAfter }),
      _source: { includes: sourceFields(search, textFields) },
      ...(search.facets.length > 0
        ? {
            aggregations: facetAggregations(
              search,
              lookupPaths,
              indices.every((spec) => spec.sortAliases),
            ),
          }
        : {}),
    },
  });
  const { hits, list } = hitsOf(response.body);
  const byType = new Map(indices.map((spec) => [spec.spec.entityType, spec]));
  return {
    total: totalHits(hits),
    hits: list.map((hit) => toHit(hit, search, byType)),
    aggregations: resolution.formatAggregations(facetsOf(response.body, search)),
  };
}

function searchQuery(
  search: NormalizedSearch,
  lookup: PathsLookup,
  textFields: readonly FieldPaths[],
): Query {
  const must: Query[] = [];
  const { query } = search;
  if (query.kind === 'text') must.push(fullTextQuery(query.terms, textFields));
  if (query.kind === 'field')
    must.push(fieldValueQuery(lookup(query.field), query.value, query.prefix === true));
  const filter = [
    filterQuery(search.filter, lookup),
    search.slice === undefined ? undefined : sliceQuery(search.slice),
  ].filter((q): q is Query => q !== undefined);
  const mustNot: Query[] = search.includeRemoved ? [] : [{ term: { [REMOVED_FIELD]: { value: true } } }];
  if (must.length === 0 && filter.length === 0 && mustNot.length === 0) return MATCH_ALL;
  return {
    bool: {
      ...(must.length > 0 ? { must } : {}),
      ...(filter.length > 0 ? { filter } : {}),
      ...(mustNot.length > 0 ? { must_not: mustNot } : {}),
    },
  };
}

/**
 * `field:value`: the value, ignoring case for strings (exact for numbers and booleans); the urn with
 * its case, as the ecosystem's urn keyword field matches it.
 */
function fieldValueQuery(variants: readonly FieldPaths[], value: string, prefix: boolean): Query {
  const clauses = variants.map((paths): Query =>
    paths.kind === 'string' && !(paths.name === URN_FIELD && !prefix)
      ? prefix
        ? { prefix: { [paths.folded ?? paths.exact]: { value: value.toLowerCase() } } }
        : { term: { [paths.folded ?? paths.exact]: { value: value.toLowerCase() } } }
      : exactValues(paths, [value]),
  );
  return clauses.length === 1 && clauses[0] !== undefined
    ? clauses[0]
    : { bool: { should: clauses, minimum_should_match: 1 } };
}

function sourceFields(search: NormalizedSearch, textFields: readonly FieldPaths[]): string[] {
  const fields = [`${META_FIELD}.urn`, `${META_FIELD}.entityType`];
  if (search.query.kind === 'text') fields.push(...new Set(textFields.map((f) => f.name)));
  if (search.query.kind === 'field') fields.push(search.query.field);
  return fields;
}

/**
 * A terms aggregation per facet, on the field's exact path. When the indices searched map the name
 * differently (a keyword `type` in one, a text `type` with its `.keyword` in another), the exact path of
 * the first would be a text field in the others, which OpenSearch refuses to aggregate: the facet then
 * reads the sort alias, which every index points at its own exact path.
 */
function facetAggregations(
  search: NormalizedSearch,
  lookup: PathsLookup,
  aliased: boolean,
): Record<string, Types.Common_Aggregations.AggregationContainer> {
  const aggregations: Record<string, Types.Common_Aggregations.AggregationContainer> = {};
  search.facets.forEach((facet, i) => {
    const variants = lookup(facet.field);
    const exactPaths = new Set(variants.map((paths) => paths.exact));
    const path =
      exactPaths.size > 1 && aliased && !isStructuredPropertyField(facet.field)
        ? sortAliasPath(facet.field)
        : (variants[0]?.exact ?? facet.field);
    aggregations[`facet_${i}`] = termsAggregation(path, search.maxAggValues);
  });
  return aggregations;
}

function facetsOf(body: unknown, search: NormalizedSearch): Aggregation[] {
  if (search.facets.length === 0) return [];
  const aggregations = aggregationsOf(body);
  return search.facets.map((facet, i) => ({
    field: facet.name,
    values: bucketsOf(aggregations[`facet_${i}`], `facet ${facet.name}`).map((bucket) => ({
      value: bucketKey(bucket),
      count: asNumber(bucket['doc_count'], 'doc_count'),
    })),
  }));
}

function toHit(
  hit: Record<string, unknown>,
  search: NormalizedSearch,
  byType: ReadonlyMap<string, ResolvedSpec>,
): SearchHit {
  const source = asObject(hit['_source'], 'hit _source');
  const meta = asObject(source[META_FIELD], `${META_FIELD} of a hit`);
  const entityType = asString(meta['entityType'], 'entityType of a hit');
  const spec = byType.get(entityType);
  const fields = spec === undefined ? [] : spec.spec.fields.map((field) => pathsOf(spec, field.name));
  const score = hit['_score'];
  return {
    urn: asString(meta['urn'], 'urn of a hit'),
    entityType,
    score: typeof score === 'number' ? score : 0,
    matchedFields: matchedFields(search.query, fields, source),
    ...(search.after === undefined ? {} : { sortValues: sortValuesOf(hit['sort'], search) }),
  };
}

/** Values by count descending, then value ascending. */
export function termsAggregation(
  field: string,
  size: number,
): Types.Common_Aggregations.AggregationContainer {
  // The generated type of `terms` omits `field`, which the server requires.
  return {
    terms: { field, size, order: [{ _count: 'desc' }, { _key: 'asc' }] },
  } as Types.Common_Aggregations.AggregationContainer;
}
