import { Router, type Request, type Response } from 'express';
import { entityRegistry, ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import type {
  EdgeDirection,
  EdgeEndpointFilter,
  EdgeKey,
  EdgeScrolls,
  LineageEdge,
} from '../../application/edge-scrolls.js';
import type { LineageDirection } from '../../application/lineage.js';
import { requestContextOf } from '../../auth/request-context.js';
import { jsonBodyParser } from '../../http/json-body.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { LINEAGE_SCROLL_OPERATION, RELATIONSHIP_SCROLL_OPERATION } from './edge-scroll-operations.js';

export interface EdgeScrollDeps {
  readonly scrolls: EdgeScrolls;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}

interface Criterion {
  readonly field: string;
  readonly value?: string;
  readonly values?: readonly string[];
  readonly condition?: string;
  readonly negated?: boolean;
}
interface V3Filter {
  readonly and?: readonly { readonly criteria?: readonly Criterion[] }[];
}

/**
 * `POST /openapi/v3/relationship/scroll` and `POST /openapi/v3/lineage/scroll`, the ecosystem's
 * GenericScrollResult `{scrollId?, results: [...]}` of GenericRelationship (`relationshipType`, `source`
 * and `destination` as `{urn, entityType}`) and, for lineage, its `upstream` and `downstream` urns. The
 * last page has no scrollId.
 */
export function edgeScrollRouter(deps: EdgeScrollDeps): Router {
  const router = Router();
  const json = jsonBodyParser({ limit: deps.maxBodyBytes });
  router.post('/openapi/v3/relationship/scroll', json, async (req: Request, res: Response) => {
    const input = requestValidator.input(RELATIONSHIP_SCROLL_OPERATION, req);
    const body = (input.body ?? {}) as {
      sourceFilter?: V3Filter;
      destinationFilter?: V3Filter;
      edgeFilter?: V3Filter;
    };
    const query = input.query;
    const types = edgeTypes(query['relationshipTypes'] as string[] | undefined, body.edgeFilter);
    const page = await deps.scrolls.relationships(requestContextOf(res), {
      ...(types === undefined ? {} : { types }),
      direction: relationshipDirection(query['direction'] as string),
      source: endpointFilters(body.sourceFilter, query['sourceTypes'] as string[] | undefined),
      destination: endpointFilters(body.destinationFilter, query['destinationTypes'] as string[] | undefined),
      count: query['count'] as number,
      ...afterOf(query['scrollId'] as string | undefined),
    });
    res.json({ ...scrollIdOf(page.next), results: page.edges.map(genericRelationship) });
  });
  router.post('/openapi/v3/lineage/scroll', json, async (req: Request, res: Response) => {
    const input = requestValidator.input(LINEAGE_SCROLL_OPERATION, req);
    const body = (input.body ?? {}) as { urns?: string[] };
    const query = input.query;
    const direction = lineageDirection(query['direction'] as string | undefined);
    const page = await deps.scrolls.lineage(requestContextOf(res), {
      types: (query['relationshipTypes'] as string[] | undefined) ?? [],
      urns: body.urns ?? [],
      ...(direction === undefined ? {} : { direction }),
      count: query['count'] as number,
      ...afterOf(query['scrollId'] as string | undefined),
    });
    res.json({
      ...scrollIdOf(page.next),
      results: page.edges.map((e: LineageEdge) => ({
        ...genericRelationship(e),
        upstream: e.upstream,
        downstream: e.downstream,
      })),
    });
  });
  router.use(
    ['/openapi/v3/relationship/scroll', '/openapi/v3/lineage/scroll'],
    openApiErrorHandler(deps.logger),
  );
  return router;
}

function genericRelationship(edge: EdgeKey) {
  return {
    relationshipType: edge.relationship,
    source: { urn: edge.source, entityType: edge.source.split(':')[2] ?? '' },
    destination: { urn: edge.target, entityType: edge.target.split(':')[2] ?? '' },
  };
}

function relationshipDirection(raw: string): EdgeDirection {
  const direction = raw.toUpperCase();
  if (direction === 'INCOMING' || direction === 'OUTGOING' || direction === 'UNDIRECTED') return direction;
  throw new ValidationError(`Direction must be INCOMING, OUTGOING, or UNDIRECTED, got: ${raw}`);
}

function lineageDirection(raw: string | undefined): LineageDirection | undefined {
  if (raw === undefined || raw === '') return undefined;
  const direction = raw.toUpperCase();
  if (direction === 'UPSTREAM' || direction === 'DOWNSTREAM') return direction;
  throw new ValidationError(`direction must be UPSTREAM or DOWNSTREAM, got: ${raw}`);
}

/** A criterion's values, when it is an equality this scroll can answer. */
function equalValues(criterion: Criterion, where: string): string[] {
  const condition = (criterion.condition ?? 'EQUAL').toUpperCase();
  if (condition !== 'EQUAL' || criterion.negated === true)
    throw new ValidationError(
      `${where}: only EQUAL (not negated) criteria are supported, got ${condition}${criterion.negated === true ? ' negated' : ''} on ${criterion.field}`,
    );
  return [...(criterion.values ?? []), ...(criterion.value === undefined ? [] : [criterion.value])];
}

const intersect = (a: readonly string[] | undefined, b: readonly string[]): string[] =>
  a === undefined ? [...b] : a.filter((x) => b.includes(x));

/**
 * The alternatives of one endpoint: each clause of the filter (ANDed criteria on `urn` and the entity
 * type), narrowed to `types` when given. None: any entity (of `types` when given).
 */
function endpointFilters(
  filter: V3Filter | undefined,
  types: readonly string[] | undefined,
): EdgeEndpointFilter[] {
  const narrowed = (f: EdgeEndpointFilter): EdgeEndpointFilter =>
    types === undefined || types.length === 0 ? f : { ...f, entityTypes: intersect(f.entityTypes, types) };
  const clauses = filter?.and ?? [];
  if (clauses.length === 0) return types === undefined || types.length === 0 ? [] : [narrowed({})];
  return clauses.map((clause) => {
    let urns: string[] | undefined;
    let entityTypes: string[] | undefined;
    for (const criterion of clause.criteria ?? []) {
      const field = criterion.field;
      if (field === 'urn') urns = intersect(urns, equalValues(criterion, 'sourceFilter/destinationFilter'));
      else if (field === '_entityType' || field === 'entityType')
        entityTypes = intersect(
          entityTypes,
          equalValues(criterion, 'sourceFilter/destinationFilter').map(entityTypeName),
        );
      else
        throw new ValidationError(
          `sourceFilter/destinationFilter: the field ${JSON.stringify(field)} is not supported; use urn or _entityType`,
        );
    }
    return narrowed({
      ...(urns === undefined ? {} : { urns }),
      ...(entityTypes === undefined ? {} : { entityTypes }),
    });
  });
}

/** An entity type as named in the registry; the SDK sends `_entityType` values upper-cased (DATASET). */
function entityTypeName(value: string): string {
  const lower = value.toLowerCase();
  return entityRegistry.entities().find((e) => e.name.toLowerCase() === lower)?.name ?? value;
}

/** The relationship names asked for: the parameter, narrowed by the edge filter's `relationshipType` (absent: all). */
function edgeTypes(
  param: readonly string[] | undefined,
  edgeFilter: V3Filter | undefined,
): string[] | undefined {
  const fromParam = param === undefined || param.length === 0 ? undefined : [...param];
  const clauses = edgeFilter?.and ?? [];
  let fromFilter: Set<string> | undefined = clauses.length === 0 ? undefined : new Set();
  for (const clause of clauses) {
    let clauseTypes: string[] | undefined;
    for (const criterion of clause.criteria ?? []) {
      if (criterion.field !== 'relationshipType')
        throw new ValidationError(
          `edgeFilter: the field ${JSON.stringify(criterion.field)} is not supported; use relationshipType`,
        );
      clauseTypes = intersect(clauseTypes, equalValues(criterion, 'edgeFilter'));
    }
    if (clauseTypes === undefined) {
      fromFilter = undefined;
      break;
    }
    for (const t of clauseTypes) fromFilter?.add(t);
  }
  if (fromFilter === undefined) return fromParam;
  return intersect(fromParam, [...fromFilter]);
}

/** The scrollId is the last edge of the page, `[source, relationship, target]`, as base64url JSON. */
function scrollIdOf(next: EdgeKey | undefined): { scrollId?: string } {
  return next === undefined
    ? {}
    : {
        scrollId: Buffer.from(JSON.stringify([next.source, next.relationship, next.target])).toString(
          'base64url',
        ),
      };
}

function afterOf(scrollId: string | undefined): { after?: EdgeKey } {
  if (scrollId === undefined || scrollId === '') return {};
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3 || !decoded.every((x) => typeof x === 'string'))
    throw new ValidationError(`Invalid scrollId ${JSON.stringify(scrollId)}: not one this service issued`);
  const [source, relationship, target] = decoded as [string, string, string];
  return { after: { source, relationship, target } };
}
