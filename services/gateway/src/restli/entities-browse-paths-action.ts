import type { Request, Response } from 'express';
import type { CatalogSearch } from '../application/catalog-search.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';
import { parseEntityUrn } from './entity-reads.js';
import { sendJson } from './send-json.js';

/**
 * POST /entities?action=getBrowsePaths `{urn}` → `{"value": ["/prod/kafka", ...]}`: the browse paths of
 * the entity's search document (empty when it has none, or the entity type is not searchable).
 */
export async function getBrowsePathsAction(
  req: Request,
  res: Response,
  search: CatalogSearch,
): Promise<void> {
  const { urn, entity } = parseEntityUrn(ActionBody.of(req).requiredString('urn'));
  const value = entity.searchable
    ? await search.browsePaths(requestContextOf(res), entity.name, urn.raw)
    : [];
  sendJson(res, { value });
}
