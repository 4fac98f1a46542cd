import type { Request, Response } from 'express';
import { entityRegistry, ValidationError, type EntitySpec } from '@catalog/model';
import {
  indexSpecFor,
  MAX_PAGE_SIZE,
  normalizeFilter,
  validateAutocompleteRequest,
  validateBrowseRequest,
  validateSearchRequest,
  withoutStructuredProperties,
  type EntityIndexSpec,
  type Filter,
  type SearchRequest,
} from '@catalog/search';
import type { CatalogSearch } from '../application/catalog-search.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';

const specs = new Map<string, EntityIndexSpec>();

/** The index spec of a searchable entity type; unknown or unsearchable types are a 400. */
export function searchSpecOf(entityType: string): EntityIndexSpec {
  const known = specs.get(entityType);
  if (known) return known;
  const entity: EntitySpec = entityRegistry.requireEntity(entityType);
  if (!entity.searchable) throw new ValidationError(`Entity type ${entityType} is not searchable`);
  const spec = indexSpecFor(entity);
  specs.set(entityType, spec);
  return spec;
}

function filterOf(body: ActionBody): Filter | undefined {
  const raw = body.raw('filter');
  return raw === undefined || raw === null ? undefined : normalizeFilter(raw);
}

/** Facets shown by default: the fields annotated as filters, as the ecosystem's search page does. */
function defaultFacets(spec: EntityIndexSpec): string[] {
  return spec.fields
    .filter((f) => f.type === 'URN' || f.type === 'KEYWORD')
    .map((f) => f.name)
    .filter((n) => FACETS.has(n));
}
const FACETS = new Set([
  'platform',
  'origin',
  'tags',
  'owners',
  'glossaryTerms',
  'domains',
  'container',
  'tool',
  'orchestrator',
  'typeNames',
]);

/**
 * POST /entities?action=search. The request is checked against the static index spec first; filters
 * on `structuredProperties.<qualifiedName>` are left to the search index, which resolves them against
 * its definitions view (an unknown or soft-deleted property is a 400 from there).
 */
export async function searchAction(req: Request, res: Response, search: CatalogSearch): Promise<void> {
  const body = ActionBody.of(req);
  const entity = body.requiredString('entity');
  const spec = searchSpecOf(entity);
  const request: SearchRequest = {
    entityTypes: [entity],
    input: body.optionalString('input') ?? '*',
    start: body.int('start', 0, { min: 0 }),
    count: body.int('count', 10, { min: 0, max: MAX_PAGE_SIZE }),
    facets: defaultFacets(spec),
    ...optionalFilter(filterOf(body)),
  };
  validateSearchRequest(searchSpecOf, withoutStructuredProperties(request));
  const result = await search.searchType(requestContextOf(res), request);
  const urns = result.hits.map((h) => h.urn);
  const matches = result.hits.map((h) => ({ matchedFields: h.matchedFields }));
  const searchResultMetadatas = result.aggregations.map((a) => ({
    name: a.field,
    aggregations: Object.fromEntries(a.values.map((v) => [v.value, v.count])),
  }));
  res.json({
    value: {
      numEntities: result.total,
      pageSize: request.count,
      from: request.start,
      entities: urns,
      metadata: {
        urns,
        matches,
        searchResultMetadatas,
        aggregations: result.aggregations.map((a) => ({
          name: a.field,
          displayName: a.field,
          aggregations: Object.fromEntries(a.values.map((v) => [v.value, v.count])),
          filterValues: a.values.map((v) => ({ value: v.value, facetCount: v.count })),
        })),
      },
    },
  });
}

/** POST /entities?action=browse */
export async function browseAction(req: Request, res: Response, search: CatalogSearch): Promise<void> {
  const body = ActionBody.of(req);
  const entity = body.requiredString('entity');
  const path = body.optionalString('path') ?? '/';
  const start = body.int('start', 0, { min: 0 });
  const limit = body.int('limit', 10, { min: 0, max: MAX_PAGE_SIZE });
  const request = { entityType: entity, path, start, limit, ...optionalFilter(filterOf(body)) };
  validateBrowseRequest(searchSpecOf, withoutStructuredProperties(request));
  const result = await search.browse(requestContextOf(res), request);
  res.json({
    value: {
      numEntities: result.totalEntities,
      pageSize: limit,
      from: start,
      entities: result.entities,
      groups: result.groups,
      numGroups: result.groups.length,
      numElements: result.totalEntities + result.groups.length,
      metadata: { path, totalNumEntities: result.totalNumEntities, groups: result.groups },
    },
  });
}

/** POST /entities?action=autocomplete */
export async function autocompleteAction(req: Request, res: Response, search: CatalogSearch): Promise<void> {
  const body = ActionBody.of(req);
  const entity = body.requiredString('entity');
  const query = body.optionalString('query') ?? '';
  const field = body.optionalString('field');
  const request = {
    entityType: entity,
    query,
    limit: body.int('limit', 10, { min: 1, max: 1000 }),
    ...(field !== undefined ? { field } : {}),
    ...optionalFilter(filterOf(body)),
  };
  validateAutocompleteRequest(searchSpecOf, withoutStructuredProperties(request));
  const result = await search.autocomplete(requestContextOf(res), request);
  res.json({
    value: { query, suggestions: result.suggestions, entities: result.entities.map((urn) => ({ urn })) },
  });
}

function optionalFilter(filter: Filter | undefined): { filter?: Filter } {
  return filter ? { filter } : {};
}
