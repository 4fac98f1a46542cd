import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import { MAX_PAGE_SIZE, type GraphIndex } from '@catalog/search';
import { parseEntityUrn } from './entity-reads.js';
import { readListParam } from './list-param.js';

/**
 * GET /relationships?urn=&types=&direction=&start=&count=: the entities on the other side of the edges.
 * Answers both the spec's `entities` list and the ecosystem's `relationships` with start/count/total.
 */
export async function getRelationships(req: Request, res: Response, graph: GraphIndex): Promise<void> {
  const { urn } = parseEntityUrn(req.query['urn']);
  const direction = directionParam(req.query['direction']);
  const types = readListParam(req.query['types'], 'types') ?? [];
  if (types.length === 0) throw new ValidationError('types is required, as types=<name> or types=List(a,b)');
  const start = intParam(req.query['start'], 'start', 0, MAX_PAGE_SIZE * 100);
  const count = intParam(req.query['count'], 'count', 100, MAX_PAGE_SIZE);
  const result = await graph.related({ urn: urn.raw, direction, types, start, count });
  res.json({
    start,
    count: result.relationships.length,
    total: result.total,
    relationships: result.relationships,
    entities: result.relationships.map((r) => r.entity),
  });
}

/** `direction=INCOMING|OUTGOING`; a 400 naming the value otherwise. */
export function directionParam(raw: unknown): 'INCOMING' | 'OUTGOING' {
  if (raw !== 'INCOMING' && raw !== 'OUTGOING')
    throw new ValidationError(`direction must be INCOMING or OUTGOING, got ${JSON.stringify(raw ?? null)}`);
  return raw;
}

export function intParam(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw new ValidationError(`${name} must be a non-negative integer`);
  const n = Number(raw);
  if (n > max) throw new ValidationError(`${name} must be <= ${max}, got ${n}`);
  return n;
}
