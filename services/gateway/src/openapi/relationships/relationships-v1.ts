import type { Request, Response } from 'express';
import type { GraphIndex } from '@catalog/search';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import { parseEntityUrn } from '../../restli/entity-reads.js';
import { RELATIONSHIPS_V1_OPERATION } from '../../restli/restli-operations.js';

/**
 * GET /openapi/relationships/v1/?urn=&direction=&relationshipTypes=&start=&count=: what the SDK's
 * `get_related_entities` pages through. `relationshipTypes` repeats (or is comma-separated); the page
 * after the last one is empty with count 0, which ends the SDK's loop.
 */
export async function getRelationshipsV1(req: Request, res: Response, graph: GraphIndex): Promise<void> {
  const query = requestValidator.input(RELATIONSHIPS_V1_OPERATION, req).query;
  const { urn } = parseEntityUrn(query['urn']);
  const direction = query['direction'] as 'INCOMING' | 'OUTGOING';
  const types = query['relationshipTypes'] as string[];
  const start = query['start'] as number;
  const count = query['count'] as number;
  const result = await graph.related({ urn: urn.raw, direction, types, start, count });
  res.json({
    start,
    count: result.relationships.length,
    total: result.total,
    entities: result.relationships.map((r) => ({ relationshipType: r.type, urn: r.entity })),
  });
}
