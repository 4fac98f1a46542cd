import type { Request, Response } from 'express';
import { BROWSE_PATHS_FIELD, type SearchIndex } from '@catalog/search';
import type { RouteGuards } from '../auth/route-guards.js';
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
  deps: { readonly search: SearchIndex; readonly guard: RouteGuards },
): Promise<void> {
  const raw = ActionBody.of(req).requiredString('urn');
  await deps.guard.readEntity(res, raw);
  const { urn, entity } = parseEntityUrn(raw);
  const document = entity.searchable ? await deps.search.getDocument(entity.name, urn.raw) : null;
  const paths = document?.fields[BROWSE_PATHS_FIELD];
  const value = paths === undefined ? [] : (Array.isArray(paths) ? paths : [paths]).map(String);
  sendJson(res, { value });
}
