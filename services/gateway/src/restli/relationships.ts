import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { Relationships } from '../application/relationships.js';
import { requestContextOf } from '../auth/request-context.js';
import { requestValidator } from '../api-contract/catalog-validator.js';
import { parseEntityUrn } from './entity-reads.js';
import { readListParam } from './list-param.js';
import { RESTLI_OPERATIONS } from './restli-operations.js';

/**
 * GET /relationships?urn=&types=&direction=&start=&count=: the entities on the other side of the edges.
 * Answers both the spec's `entities` list and the ecosystem's `relationships` with start/count/total.
 */
export async function getRelationships(
  req: Request,
  res: Response,
  relationships: Relationships,
): Promise<void> {
  const query = requestValidator.input(RESTLI_OPERATIONS.relationships, req).query;
  const { urn } = parseEntityUrn(query['urn']);
  const direction = query['direction'] as 'INCOMING' | 'OUTGOING';
  const types = readListParam(query['types'], 'types') ?? [];
  if (types.length === 0) throw new ValidationError('types is required, as types=<name> or types=List(a,b)');
  const start = query['start'] as number;
  const count = query['count'] as number;
  const result = await relationships.related(requestContextOf(res), {
    urn: urn.raw,
    direction,
    types,
    start,
    count,
  });
  res.json({
    start,
    count: result.relationships.length,
    total: result.total,
    relationships: result.relationships,
    entities: result.relationships.map((r) => r.entity),
  });
}
