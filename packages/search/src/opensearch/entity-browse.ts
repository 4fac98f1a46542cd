import type { Types } from '@opensearch-project/opensearch';
import { browseEntityName } from '../default-browse-path.js';
import { BROWSE_PATHS_FIELD, NAME_FIELD, REMOVED_FIELD } from '../document-fields.js';
import type { BrowseRequest, BrowseResponse } from '../port.js';
import { validateBrowseRequest } from '../validate-search-request.js';
import { pathsOf } from './entity-specs.js';
import { META_FIELD, URN_PATH } from './field-paths.js';
import { filterQuery, type Query } from './filter-query.js';
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

/** Groups per browse level: far more than a UI lists; the ecosystem does not page groups either. */
const MAX_GROUPS = 10_000;

/**
 * Browse over the entity's browse paths, using the parent and ancestor keywords stored with each
 * document: entities listed at P are those whose path is P (their `parent` keyword); the groups at P
 * are the ancestors one segment below P, each counting the documents at or below it; everything at or
 * below P has P among its ancestors.
 */
export async function runBrowse(context: ReadContext, request: BrowseRequest): Promise<BrowseResponse> {
  const resolution = await resolveStructured(context, request);
  const { lookup, resolved } = await loadSpecs(
    context.specs,
    [request.entityType],
    resolution.fields.length > 0 ? resolution.extend : undefined,
  );
  const browse = validateBrowseRequest(lookup, resolution.request);
  const spec = resolved.get(browse.spec.entityType);
  if (spec === undefined) throw new Error(`no index for ${browse.spec.entityType}`);
  const paths = pathsOf(spec, BROWSE_PATHS_FIELD);
  if (paths.browseParent === undefined || paths.browseAncestors === undefined) {
    throw new Error(`${BROWSE_PATHS_FIELD} of ${spec.spec.entityType} is not a browse path field`);
  }
  const path = browse.path === '' ? '/' : browse.path;
  const filter = filterQuery(browse.filter, pathsAcross([spec]));
  const restrict: Query[] = [
    { term: { [paths.browseAncestors]: { value: path } } },
    ...(filter ? [filter] : []),
  ];
  const notRemoved: Query[] = [{ term: { [REMOVED_FIELD]: { value: true } } }];
  const response = await context.client.search({
    index: spec.alias,
    body: {
      query: { bool: { filter: restrict, must_not: notRemoved } },
      size: 0,
      track_total_hits: true,
      aggregations: { groups: childGroups(paths.browseAncestors, path) },
    },
  });
  const below = totalHits(hitsOf(response.body).hits);
  const groups = bucketsOf(aggregationsOf(response.body)['groups'], 'browse groups').map((bucket) => {
    const key = bucketKey(bucket);
    return { name: key.slice(key.lastIndexOf('/') + 1), count: asNumber(bucket['doc_count'], 'doc_count') };
  });
  const listed = await context.client.search({
    index: spec.alias,
    body: {
      query: {
        bool: {
          filter: [{ term: { [paths.browseParent]: { value: path } } }, ...(filter ? [filter] : [])],
          must_not: notRemoved,
        },
      },
      from: request.start,
      size: request.limit,
      track_total_hits: true,
      sort: [{ [URN_PATH]: { order: 'asc' } }],
      _source: { includes: [`${META_FIELD}.urn`, NAME_FIELD] },
    },
  });
  const { hits, list } = hitsOf(listed.body);
  const entities = list.map((hit) => {
    const source = asObject(hit['_source'], 'hit _source');
    const urn = asString(asObject(source[META_FIELD], META_FIELD)['urn'], 'urn of a hit');
    return { urn, name: browseEntityName(urn, source[NAME_FIELD]) };
  });
  const totalEntities = totalHits(hits);
  // Entities listed here have `path` among their ancestors too, so `below` already counts them.
  return { groups, entities, totalEntities, totalNumEntities: below };
}

/** The ancestors one segment below `path`, by name: the groups listed at `path`. */
function childGroups(field: string, path: string): Types.Common_Aggregations.AggregationContainer {
  const include = `${escapeRegExp(path === '/' ? '' : path)}/[^/]+`;
  // The generated type of `terms` omits `field` and `include`, which the server takes.
  return {
    terms: { field, include, size: MAX_GROUPS, order: { _key: 'asc' } },
  } as Types.Common_Aggregations.AggregationContainer;
}

/** Lucene regular expressions reserve more characters than JavaScript's. */
function escapeRegExp(text: string): string {
  return text.replace(/[.?+*|{}[\]()"\\#@&<>~]/g, (c) => `\\${c}`);
}
