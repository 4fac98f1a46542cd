import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import { MAX_PAGE_SIZE, type GraphIndex } from '@catalog/search';
import { parseEntityUrn } from '../../restli/entity-reads.js';
import { directionParam, intParam } from '../../restli/relationships.js';

/**
 * GET /openapi/relationships/v1/?urn=&direction=&relationshipTypes=&start=&count=: what the SDK's
 * `get_related_entities` pages through. `relationshipTypes` repeats (or is comma-separated); the page
 * after the last one is empty with count 0, which ends the SDK's loop.
 */
export async function getRelationshipsV1(req: Request, res: Response, graph: GraphIndex): Promise<void> {
  const { urn } = parseEntityUrn(req.query['urn']);
  const direction = directionParam(req.query['direction']);
  const raw = req.query['relationshipTypes'];
  const types = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((t) => (typeof t === 'string' ? t.split(',') : []))
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (types.length === 0) throw new ValidationError('relationshipTypes is required');
  const start = intParam(req.query['start'], 'start', 0, MAX_PAGE_SIZE * 100);
  const count = intParam(req.query['count'], 'count', 200, MAX_PAGE_SIZE);
  const result = await graph.related({ urn: urn.raw, direction, types, start, count });
  res.json({
    start,
    count: result.relationships.length,
    total: result.total,
    entities: result.relationships.map((r) => ({ relationshipType: r.type, urn: r.entity })),
  });
}
