import type { Request, Response } from 'express';
import {
  MAX_PAGE_SIZE,
  normalizeFilter,
  validateSearchRequest,
  withoutStructuredProperties,
  type SearchRequest,
  type SortCriterion,
} from '@catalog/search';
import { ValidationError } from '@catalog/model';
import type { CatalogSearch } from '../application/catalog-search.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';
import { searchSpecOf } from './search-actions.js';
import { sendJson } from './send-json.js';

/**
 * POST /entities?action=list `{entity, filter?, sort?, sortCriteria?, start, count}` →
 * `{"value": {entities: [urn], start, count, total}}`: the entities of a type matching the filter, from the
 * search index (soft-deleted ones left out), as the ecosystem's `list` (the ListResult of `listUrns`).
 */
export async function listEntitiesAction(req: Request, res: Response, search: CatalogSearch): Promise<void> {
  const body = ActionBody.of(req);
  const entity = body.requiredString('entity');
  searchSpecOf(entity);
  const filter = body.raw('filter');
  const sort = sortOf(body);
  const request: SearchRequest = {
    entityTypes: [entity],
    input: '*',
    start: body.int('start', 0, { min: 0 }),
    count: body.int('count', 10, { min: 0, max: MAX_PAGE_SIZE }),
    ...(filter === undefined || filter === null ? {} : { filter: normalizeFilter(filter) }),
    ...(sort.length > 0 ? { sort } : {}),
  };
  validateSearchRequest(searchSpecOf, withoutStructuredProperties(request));
  const result = await search.searchType(requestContextOf(res), request);
  sendJson(res, {
    value: {
      entities: result.hits.map((h) => h.urn),
      start: request.start,
      count: request.count,
      total: result.total,
    },
  });
}

/** `sortCriteria: [{field, order}]`, or the older single `sort: {field, order}`. */
function sortOf(body: ActionBody): SortCriterion[] {
  const many = body.raw('sortCriteria');
  const one = body.raw('sort');
  const items = Array.isArray(many) ? many : one === undefined || one === null ? [] : [one];
  return items.map((item, i) => {
    const { field, order } = (item ?? {}) as { field?: unknown; order?: unknown };
    if (typeof field !== 'string' || (order !== 'ASCENDING' && order !== 'DESCENDING'))
      throw new ValidationError(`sortCriteria[${i}] must be {field, order: ASCENDING|DESCENDING}`);
    return { field, order };
  });
}

/**
 * POST /entities?action=listUrns {entity, start, count}: the urns of one entity type, a page at a time,
 * as the ecosystem's ListUrnsResult `{value: {entities, start, count, total}}` (the SDK's
 * `list_all_entity_urns`). Entities the caller may not read are left out of the page.
 */
export async function listUrnsAction(req: Request, res: Response, search: CatalogSearch): Promise<void> {
  const body = ActionBody.of(req);
  const entity = body.requiredString('entity');
  searchSpecOf(entity);
  const request: SearchRequest = {
    entityTypes: [entity],
    input: '*',
    start: body.int('start', 0, { min: 0 }),
    count: body.int('count', 10, { min: 0, max: MAX_PAGE_SIZE }),
  };
  const result = await search.searchType(requestContextOf(res), request);
  sendJson(res, {
    value: {
      entities: result.hits.map((h) => h.urn),
      start: request.start,
      count: result.hits.length,
      total: result.total,
    },
  });
}
