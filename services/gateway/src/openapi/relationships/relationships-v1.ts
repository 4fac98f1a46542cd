import type { Request, Response } from 'express';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import type { Relationships } from '../../application/relationships.js';
import { requestContextOf } from '../../auth/request-context.js';
import { parseEntityUrn } from '../../restli/entity-reads.js';
import { RELATIONSHIPS_V1_OPERATION } from '../../restli/restli-operations.js';

/**
 * GET /openapi/relationships/v1/?urn=&direction=&relationshipTypes=&start=&count=: what the SDK's
 * `get_related_entities` pages through. `relationshipTypes` repeats (or is comma-separated); the page
 * after the last one is empty with count 0, which ends the SDK's loop. `count` is how many
 * relationships the page covered, readable or not (the SDK adds it to `start`), so a page whose
 * unreadable entities were left out neither repeats nor ends the SDK's paging early.
 */
export async function getRelationshipsV1(
  req: Request,
  res: Response,
  relationships: Relationships,
): Promise<void> {
  const query = requestValidator.input(RELATIONSHIPS_V1_OPERATION, req).query;
  const { urn } = parseEntityUrn(query['urn']);
  const start = query['start'] as number;
  const page = await relationships.related(requestContextOf(res), {
    urn: urn.raw,
    direction: query['direction'] as 'INCOMING' | 'OUTGOING',
    types: query['relationshipTypes'] as string[],
    start,
    count: query['count'] as number,
  });
  res.json({
    start,
    count: page.covered,
    total: page.total,
    entities: page.relationships.map((r) => ({ relationshipType: r.type, urn: r.entity })),
  });
}
