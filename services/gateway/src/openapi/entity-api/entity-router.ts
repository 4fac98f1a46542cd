import { requestContextOf } from '../../auth/request-context.js';
import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { jsonBodyParser } from '../../http/json-body.js';
import {
  checkProposal,
  SchemaValidationError,
  ValidationError,
  type AspectSpec,
  type CheckedProposal,
  type EntitySpec,
  parseUrn,
  withDoubles,
} from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { StoredAspect } from '../../application/aspect-visibility.js';
import type { CatalogApplication } from '../../application/catalog-application.js';
import type { BatchItem } from '../../application/entity-lookups.js';
import type {
  Criterion,
  EntityPage,
  Filter,
  SearchSlice,
  SortCriterion,
  SortOrder,
} from '../../application/entity-pages.js';
import { decodeScrollId, encodeScrollId } from './scroll-cursor.js';
import type { Operation } from '../../api-contract/operation.js';
import { requestValidator } from '../../api-contract/catalog-validator.js';
import type { RequestInput } from '../../api-contract/request-input.js';
import { openApiErrorHandler } from '../openapi-errors.js';
import { systemMetadataWithOrigin } from '../../ingest/proposal-origin.js';
import {
  aspectOperations,
  CROSS_ENTITY_OPERATIONS,
  entityOperations,
  MAX_SCROLL_COUNT,
  V2_OPERATIONS,
  type AspectOperations,
} from './entity-operations.js';
import { aspectOfName, entityOfName, requireUrn, urnAndAspect } from './entity-paths.js';

export interface EntityApiDeps {
  /** The use cases the routes call; they decide what the caller may read and write. */
  readonly app: Pick<
    CatalogApplication,
    'entities' | 'entityPages' | 'entityLookups' | 'entityWrites' | 'timeseries'
  >;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}

type Json = Record<string, unknown>;

/** Checks a request against its operation (the document's source); the checked, defaulted input. */
const inputOf = (operation: Operation, req: Request): RequestInput => requestValidator.input(operation, req);
const bool = (input: RequestInput, name: string): boolean => input.query[name] === true;
const names = (input: RequestInput, name: string): readonly string[] =>
  (input.query[name] as readonly string[] | undefined) ?? [];

/** The aspect names a read asks for (`aspects`, or the older `aspectNames`), unknown ones dropped; undefined = all. */
function aspectsAsked(input: RequestInput, entity: EntitySpec): string[] | undefined {
  const asked = [...names(input, 'aspects'), ...names(input, 'aspectNames')];
  if (asked.length === 0) return undefined;
  return asked.flatMap((name) => aspectOfName(entity, name)?.name ?? []);
}

/** `{urn, <aspect>: {value, systemMetadata?}}` of stored aspects. */
function uniqueUrns(items: readonly { readonly urn: string }[]): string[] {
  return [...new Set(items.map((item) => item.urn))];
}

function entityBody(urn: string, aspects: readonly StoredAspect[], withSystemMetadata: boolean): Json {
  const body: Json = { urn };
  for (const a of aspects) body[a.aspect] = aspectBody(a, withSystemMetadata);
  return body;
}

function aspectBody(aspect: StoredAspect, withSystemMetadata: boolean): Json {
  return withSystemMetadata && aspect.systemMetadata !== null
    ? { value: withDoubles(aspect.aspect, aspect.value), systemMetadata: aspect.systemMetadata }
    : { value: withDoubles(aspect.aspect, aspect.value) };
}

/**
 * Every OpenAPI response carries a W3C traceparent with the request's trace id (the one its own
 * `traceparent` named, else a new one): the SDK reads it, and the change log and audit trail record it.
 */
function traceparent(res: Response): string {
  const trace = requestContextOf(res).origin.traceId;
  res.set('traceparent', `00-${trace}-${randomBytes(8).toString('hex')}-01`);
  return trace;
}

/** The conditions a single-aspect request may send as HTTP headers; they join the proposal's headers. */
const CONDITION_HEADERS = ['If-Version-Match', 'If-None-Match'] as const;

function conditionHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of CONDITION_HEADERS) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

interface ItemAspect {
  readonly aspect: string;
  readonly value: unknown;
  readonly systemMetadata?: unknown;
  readonly headers?: unknown;
}

/**
 * The `[ {urn, <aspect>: {value, systemMetadata?, headers?}} ]` body of a batch write (v2 nests the aspects
 * under `aspects`), already checked against the route's operation; aspect keys resolve to registry names.
 */
function batchItems(
  body: unknown,
  entity: EntitySpec,
  nested: boolean,
): { urn: string; aspects: ItemAspect[] }[] {
  return (body as Json[]).map((item) => {
    const { urn: raw, ...rest } = item as Json & { urn: string };
    // The urn first, then the aspects, as the ecosystem orders those errors.
    const { urn } = requireUrn(raw);
    const named = (nested ? rest['aspects'] : rest) as Record<string, Json>;
    const aspects = Object.entries(named).map(([name, w]) => {
      const spec = aspectOfName(entity, name);
      if (spec === undefined)
        throw new SchemaValidationError(`Unknown aspect ${name} for entity ${entity.name}`, []);
      if (typeof w !== 'object' || w === null || Array.isArray(w))
        throw new ValidationError(`Aspect ${name} must be an object {value, systemMetadata?, headers?}`);
      return {
        aspect: spec.name,
        value: w['value'],
        ...(w['systemMetadata'] === undefined ? {} : { systemMetadata: w['systemMetadata'] }),
        ...(w['headers'] === undefined ? {} : { headers: w['headers'] }),
      };
    });
    return { urn, aspects };
  });
}

function proposalOf(entity: EntitySpec, urn: string, a: ItemAspect, changeType: string): CheckedProposal {
  // Where the request came from joins the system metadata when it is submitted (ProposalSubmitter).
  const given = (
    typeof a.systemMetadata === 'object' && a.systemMetadata !== null ? a.systemMetadata : {}
  ) as Json;
  return checkProposal({
    entityType: entity.name,
    entityUrn: urn,
    changeType,
    aspectName: a.aspect,
    aspect: {
      contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json',
      value: JSON.stringify(a.value),
    },
    systemMetadata: given,
    ...(a.headers === undefined ||
    (typeof a.headers === 'object' && Object.keys(a.headers as Json).length === 0)
      ? {}
      : { headers: a.headers }),
  });
}

/** `[{field: 'entity', aggregations: {<type>: n}}]` of a page that counted entity types; else `[]`. */
function entityFacets(page: EntityPage): Json[] {
  if (page.entityTypeCounts === undefined) return [];
  return [{ field: 'entity', aggregations: Object.fromEntries(page.entityTypeCounts) }];
}

/**
 * The `entity` facet of a cross-entity scroll that skips aggregations, as the ecosystem's search service
 * makes it when the index gave none: the entity types of the page's own entities, counted.
 */
function pageEntityFacets(urns: readonly string[]): Json[] {
  const counts = new Map<string, number>();
  for (const urn of urns) {
    const type = parseUrn(urn).entityType;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [{ field: 'entity', aggregations: Object.fromEntries(counts) }];
}

/** The items of a batchGet body: each urn with the aspects (and versions) it asks for. */
function batchItemsAsked(entity: EntitySpec, body: unknown): BatchItem[] {
  return (body as Json[]).map((item) => {
    const { urn, ...rest } = item as Json & { urn: string };
    // An aspect's `If-Version-Match: N` header selects its stored version N (0: the latest).
    const aspects = Object.entries(rest).flatMap(([n, options]) => {
      const aspect = aspectOfName(entity, n);
      return aspect === undefined ? [] : [{ name: aspect.name, version: versionAsked(options) }];
    });
    return { urn: String(urn), aspects };
  });
}

/** The version a batchGet item asks for with its `If-Version-Match` header (any case); 0 = latest. */
function versionAsked(options: unknown): number {
  const headers = (options as { headers?: Record<string, string> } | null)?.headers ?? {};
  const raw = Object.entries(headers).find(([k]) => k.toLowerCase() === 'if-version-match')?.[1];
  if (raw === undefined || raw.trim() === '') return 0;
  const version = Number(raw);
  if (!Number.isSafeInteger(version) || version < 0)
    throw new ValidationError(`If-Version-Match must be a version number, got ${JSON.stringify(raw)}`);
  return version;
}

/** The cross-entity scroll's body (CrossEntitiesScrollRequest). */
interface ScrollBody {
  readonly entities?: string[];
  readonly aspects?: string[];
  readonly filter?: { readonly and?: readonly { readonly criteria?: readonly Json[] }[] };
  readonly sortCriteria?: readonly { readonly field: string; readonly order?: SortOrder }[];
}

/**
 * The sort of a scroll: the body's `sortCriteria` objects (each with its own order), else the query's
 * `sortCriteria` (repeatable), else the deprecated `sort`; the query ones take `sortOrder`. None: by urn.
 */
function sortOf(input: RequestInput, body: ScrollBody): SortCriterion[] {
  const order = input.query['sortOrder'] as SortOrder;
  if (body.sortCriteria !== undefined && body.sortCriteria.length > 0)
    return body.sortCriteria.map((c) => ({ field: c.field, order: c.order ?? order }));
  const fields = (input.query['sortCriteria'] as string[] | undefined) ?? [];
  const sort = input.query['sort'] as string | undefined;
  const named = fields.length > 0 ? fields : sort === undefined || sort === '' ? [] : [sort];
  // Sorting by urn alone is what a keyset scroll does anyway.
  return named.filter((field) => field !== 'urn').map((field) => ({ field, order }));
}

/** `sliceId` with `sliceMax`: one of that many disjoint parts of the scroll. */
function sliceOf(input: RequestInput): SearchSlice | undefined {
  const id = input.query['sliceId'] as number | undefined;
  const max = input.query['sliceMax'] as number | undefined;
  if (id === undefined && max === undefined) return undefined;
  if (id === undefined || max === undefined)
    throw new ValidationError('sliceId and sliceMax go together: both or neither');
  return { id, max };
}

/**
 * The cross-entity scroll's filter, `{and: [{criteria: [...]}]}`: the outer list is ORed and each
 * criteria list ANDed (as the ecosystem reads it), which is the search port's `{or: [{and}]}`.
 */
function scrollFilter(filter: NonNullable<ScrollBody['filter']>): Filter {
  return {
    or: (filter.and ?? []).map((group) => ({
      and: (group.criteria ?? []).map((c): Criterion => ({
        field: String(c['field']),
        values: Array.isArray(c['values'])
          ? c['values'].map(String)
          : c['value'] === undefined
            ? []
            : [String(c['value'])],
        condition: (c['condition'] ?? 'EQUAL') as Criterion['condition'],
        ...(c['negated'] === true ? { negated: true } : {}),
      })),
    })),
  };
}

/**
 * The OpenAPI entity API, v3 (`/openapi/v3/entity`) or the deprecated v2 (`/openapi/v2/entity`): the same
 * routes and defaults, v2 nesting aspects under `aspects` and taking raw aspect bodies (spec 4.13). Each
 * route parses, calls one application operation with the request's context and formats its answer:
 * what the caller may read or write is decided there.
 */
export function entityApiRouter(deps: EntityApiDeps, version: 'v2' | 'v3'): Router {
  const { app } = deps;
  const v2 = version === 'v2';
  const shape = (urn: string, aspects: readonly StoredAspect[], withSystemMetadata: boolean): Json =>
    v2
      ? {
          urn,
          aspects: Object.fromEntries(aspects.map((a) => [a.aspect, aspectBody(a, withSystemMetadata)])),
        }
      : entityBody(urn, aspects, withSystemMetadata);
  const router = Router();
  const json = jsonBodyParser({ limit: deps.maxBodyBytes });
  const jsonPatch = jsonBodyParser({ limit: deps.maxBodyBytes, jsonPatch: true });
  router.use((_req, res, next) => {
    res.locals['traceId'] = traceparent(res);
    next();
  });

  /** An aspect as submitted: its value and, when asked for, the system metadata it was submitted with. */
  const submittedBody = (
    res: Response,
    input: RequestInput,
    aspect: string,
    value: unknown,
    given: unknown,
  ): Json =>
    bool(input, 'systemMetadata')
      ? {
          value: withDoubles(aspect, value),
          systemMetadata: systemMetadataWithOrigin(
            given as CheckedProposal['systemMetadata'],
            requestContextOf(res).origin,
          ),
        }
      : { value: withDoubles(aspect, value) };

  /** An entity body holding one aspect value as submitted. */
  const shapeSubmitted = (
    res: Response,
    input: RequestInput,
    urn: string,
    aspect: string,
    body: Json,
  ): Json => {
    const submitted = submittedBody(res, input, aspect, body['value'], body['systemMetadata']);
    return v2 ? { urn, aspects: { [aspect]: submitted } } : { urn, [aspect]: submitted };
  };

  /** The operations of the routes on `/{type}` and `/{type}/{urn}` for one entity type, in this version. */
  const entityOps = (entity: EntitySpec) => (v2 ? V2_OPERATIONS : entityOperations(entity));
  const aspectOps = (entity: EntitySpec, aspect: AspectSpec): AspectOperations =>
    v2
      ? {
          get: V2_OPERATIONS.getAspect,
          head: V2_OPERATIONS.headAspect,
          delete: V2_OPERATIONS.deleteAspect,
          ...(aspect.isKey ? {} : { post: V2_OPERATIONS.postAspect }),
          ...(aspect.kind === 'versioned' && !aspect.isKey ? { patch: V2_OPERATIONS.patchAspect } : {}),
        }
      : aspectOperations(entity, aspect);
  const v3Only = (what: string) => {
    if (v2) throw new ValidationError(`${what} is a v3 route: /openapi/v3/entity`);
  };

  /** Writes batches of several entity types in one submission; sync answers with what was stored. */
  const writeBatches = async (
    res: Response,
    input: RequestInput,
    batches: readonly { entity: EntitySpec; body: unknown }[],
    changeType: 'UPSERT' | 'PATCH',
  ): Promise<{ entity: EntitySpec; items: ReturnType<typeof batchItems>; stored?: Json[] }[]> => {
    const parsed = batches.map((b) => ({
      entity: b.entity,
      items: batchItems(b.body, b.entity, v2),
    }));
    const proposals = parsed.flatMap(({ entity, items }) =>
      items.flatMap((item) => item.aspects.map((a) => proposalOf(entity, item.urn, a, changeType))),
    );
    const ctx = requestContextOf(res);
    if (bool(input, 'async')) {
      await app.entityWrites.propose(ctx, proposals, { sync: false });
      return parsed;
    }
    const groups = parsed.map(({ entity, items }) => ({
      entity,
      urns: uniqueUrns(items),
      aspects: [...new Set(items.flatMap((item) => item.aspects.map((a) => a.aspect)))],
    }));
    // A new entity is answered with everything its creation stored (key and default aspects too).
    const stored = await app.entityWrites.proposeAndReadBack(ctx, proposals, groups, {
      wholeWhenCreated: true,
    });
    const withSystemMetadata = bool(input, 'systemMetadata');
    return parsed.map(({ entity, items }, i) => ({
      entity,
      items,
      stored: groups[i]!.urns.map((urn, j) => shape(urn, stored[i]![j]!, withSystemMetadata)),
    }));
  };

  /** Writes one aspect of one entity; sync answers with what was stored. */
  const writeOne = async (
    res: Response,
    entity: EntitySpec,
    urn: string,
    aspect: string,
    proposal: CheckedProposal,
    input: RequestInput,
  ): Promise<Json | undefined> => {
    const ctx = requestContextOf(res);
    if (bool(input, 'async')) {
      await app.entityWrites.propose(ctx, [proposal], { sync: false });
      return undefined;
    }
    const written = await app.entityWrites.proposeAndReadBack(
      ctx,
      [proposal],
      [{ entity, urns: [urn], aspects: [aspect] }],
      { wholeWhenCreated: false },
    );
    return shape(urn, written[0]?.[0] ?? [], bool(input, 'systemMetadata'));
  };

  /**
   * The echo of an asynchronous batch: the submitted aspects (v3), the urns (v2); with `systemMetadata`,
   * each aspect's system metadata as submitted (its `telemetryTraceId` is the one the write trace asks for).
   */
  const echo = (res: Response, input: RequestInput, items: ReturnType<typeof batchItems>): Json[] =>
    items.map((item) =>
      v2
        ? { urn: item.urn }
        : {
            urn: item.urn,
            ...Object.fromEntries(
              item.aspects.map((a) => [
                a.aspect,
                submittedBody(res, input, a.aspect, a.value, a.systemMetadata),
              ]),
            ),
          },
    );

  const batchWrite = (changeType: 'UPSERT' | 'PATCH') => async (req: Request, res: Response) => {
    const entity = entityOfName(String(req.params['type']));
    const ops = entityOps(entity);
    const input = inputOf(changeType === 'PATCH' ? ops.batchPatch : ops.batchUpsert, req);
    const [result] = await writeBatches(res, input, [{ entity, body: input.body }], changeType);
    if (result?.stored !== undefined) res.json(result.stored);
    else if (changeType === 'PATCH') res.status(202).end();
    else res.status(202).json(echo(res, input, result?.items ?? []));
  };

  /** `{"<entityName>": [items]}` bodies of the generic routes, each value a list. */
  const genericBatches = (body: unknown) =>
    Object.entries(body as Json).map(([name, list]) => ({ entity: entityOfName(name), body: list }));

  const genericWrite = (changeType: 'UPSERT' | 'PATCH') => async (req: Request, res: Response) => {
    v3Only('The generic write');
    const input = inputOf(
      changeType === 'PATCH' ? CROSS_ENTITY_OPERATIONS.genericPatch : CROSS_ENTITY_OPERATIONS.genericUpsert,
      req,
    );
    const batches = genericBatches(input.body);
    // Each list is checked as the per-type route checks its body.
    for (const b of batches) {
      const ops = entityOperations(b.entity);
      requestValidator.checkBody(changeType === 'PATCH' ? ops.batchPatch : ops.batchUpsert, b.body);
    }
    const results = await writeBatches(res, input, batches, changeType);
    const synced = results.every((r) => r.stored !== undefined);
    res
      .status(synced ? 200 : 202)
      .json(
        Object.fromEntries(
          results.map((r) => [
            r.entity.name,
            r.stored ?? (changeType === 'PATCH' ? [] : echo(res, input, r.items)),
          ]),
        ),
      );
  };

  /** The entities of batchGet reads, in the shape of this version. */
  const batchShapes = async (
    res: Response,
    groups: readonly (readonly BatchItem[])[],
    withSystemMetadata: boolean,
  ): Promise<Json[][]> => {
    const found = await app.entityLookups.batchGet(requestContextOf(res), groups);
    return found.map((items) => items.map((f) => shape(f.urn, f.aspects, withSystemMetadata)));
  };

  router.post('/generic/batchGet', json, async (req, res) => {
    v3Only('The generic batchGet');
    const input = inputOf(CROSS_ENTITY_OPERATIONS.genericBatchGet, req);
    const batches = genericBatches(input.body);
    for (const { entity, body } of batches)
      requestValidator.checkBody(entityOperations(entity).batchGet, body);
    const shaped = await batchShapes(
      res,
      batches.map(({ entity, body }) => batchItemsAsked(entity, body)),
      bool(input, 'systemMetadata'),
    );
    res.json(Object.fromEntries(batches.map(({ entity }, i) => [entity.name, shaped[i]])));
  });
  router.post('/generic', json, genericWrite('UPSERT'));
  router.patch('/generic', jsonPatch, genericWrite('PATCH'));

  router.post('/scroll', json, async (req, res) => {
    v3Only('The cross-entity scroll');
    const input = inputOf(CROSS_ENTITY_OPERATIONS.scroll, req);
    const body = (input.body ?? {}) as ScrollBody;
    const entities = (body.entities ?? []).map((n) => entityOfName(n).name);
    // Absent `aspects`: urns only; `[]`: every aspect; a list: those.
    const aspects = Array.isArray(body.aspects)
      ? body.aspects.length === 0
        ? undefined
        : body.aspects
      : null;
    await scroll(input, res, entities.length > 0 ? entities : undefined, aspects, body);
  });

  const scroll = async (
    input: RequestInput,
    res: Response,
    entities: string[] | undefined,
    aspects: string[] | null | undefined,
    body: ScrollBody = {},
  ) => {
    // Above the maximum, the ecosystem clamps silently (SEARCH_SERVICE_LIMIT_RESULTS_MAX).
    const count = Math.min(input.query['count'] as number, MAX_SCROLL_COUNT);
    const sort = sortOf(input, body);
    const slice = sliceOf(input);
    const crossEntity = !v2 && entities?.length !== 1;
    const skipAggregation = bool(input, 'skipAggregation');
    const page = await app.entityPages.page(requestContextOf(res), {
      ...(entities === undefined ? {} : { entityTypes: entities }),
      query: input.query['query'] as string,
      count,
      sort,
      after: decodeScrollId(input.query['scrollId'] as string | undefined, sort),
      ...(slice === undefined ? {} : { slice }),
      ...(body.filter === undefined ? {} : { filter: scrollFilter(body.filter) }),
      includeSoftDeleted: bool(input, 'includeSoftDelete'),
      // The cross-entity scroll counts its matches per entity type, as the ecosystem's `entity` facet,
      // unless aggregations are skipped (its default): the facet then counts the page's entities.
      countEntityTypes: crossEntity && !skipAggregation,
      aspects,
    });
    const withSystemMetadata = bool(input, 'systemMetadata');
    const next = page.next === undefined ? {} : { scrollId: encodeScrollId(sort, page.next) };
    const bodies = page.urns.map((urn) => shape(urn, page.aspects.get(urn) ?? [], withSystemMetadata));
    res.json(
      v2
        ? { ...next, results: bodies }
        : {
            ...next,
            entities: bodies,
            totalCount: page.total,
            facets: crossEntity && skipAggregation ? pageEntityFacets(page.urns) : entityFacets(page),
          },
    );
  };

  router.get('/:type', async (req, res) => {
    const entity = entityOfName(String(req.params['type']));
    const input = inputOf(entityOps(entity).scroll, req);
    await scroll(input, res, [entity.name], aspectsAsked(input, entity));
  });
  router.post('/:type', json, batchWrite('UPSERT'));
  router.patch('/:type', jsonPatch, batchWrite('PATCH'));
  // v2's batch read: {urns, aspectNames, withSystemMetadata} → {entities: [{urn, aspects}]} (get_entities_v2).
  router.post('/batch/:type', json, async (req, res) => {
    if (!v2) throw new ValidationError('POST /batch/{type} is a v2 route; v3 has /{type}/batchGet');
    const entity = entityOfName(String(req.params['type']));
    const body = inputOf(V2_OPERATIONS.batchGet, req).body as {
      urns: string[];
      aspectNames?: string[];
      withSystemMetadata?: boolean;
    };
    const urns = body.urns.map((u) => requireUrn(u).urn);
    const names = body.aspectNames?.flatMap((n) => aspectOfName(entity, n)?.name ?? []);
    const found = await app.entities.latestOfEach(
      requestContextOf(res),
      urns,
      names?.length ? names : undefined,
    );
    res.json({
      entities: urns
        .filter((urn) => (found.get(urn) ?? []).length > 0)
        .map((urn) => shape(urn, found.get(urn) ?? [], body.withSystemMetadata === true)),
    });
  });
  router.post('/:type/batchGet', json, async (req, res) => {
    v3Only('POST /{type}/batchGet');
    const entity = entityOfName(String(req.params['type']));
    const input = inputOf(entityOperations(entity).batchGet, req);
    const [entities] = await batchShapes(
      res,
      [batchItemsAsked(entity, input.body)],
      bool(input, 'systemMetadata'),
    );
    res.json(entities);
  });

  /** The urn (and aspect) after `/{type}/`, taken from the raw path so an encoded `/` stays in the urn. */
  const target = (req: Request) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    const marker = `/${req.params['type']}/`;
    const at = path.indexOf(marker);
    return urnAndAspect(path.slice(at + marker.length));
  };

  // Before GET: express answers HEAD with the first GET route that matches otherwise.
  router.head('/:type/*rest', async (req, res) => {
    const { urn, entity, aspect } = target(req);
    inputOf(aspect === undefined ? entityOps(entity).head : aspectOps(entity, aspect).head, req);
    const exists = await app.entityLookups.exists(requestContextOf(res), urn, aspect?.name);
    res.status(exists ? 204 : 404).end();
  });

  router.get('/:type/*rest', async (req, res) => {
    const { urn, entity, aspect } = target(req);
    const ctx = requestContextOf(res);
    if (aspect !== undefined) {
      const input = inputOf(aspectOps(entity, aspect).get, req);
      const withSystemMetadata = bool(input, 'systemMetadata');
      const version = input.query['version'] as number;
      const stored =
        aspect.kind === 'timeseries'
          ? await app.timeseries.latestValue(ctx, urn, entity.name, aspect.name, version)
          : await app.entityLookups.aspectVersion(ctx, urn, aspect.name, version);
      if (stored === null) {
        res.status(404).set('Not-Found-Reason', 'ASPECT').end();
        return;
      }
      res.json(v2 ? shape(urn, [stored], withSystemMetadata) : aspectBody(stored, withSystemMetadata));
      return;
    }
    const input = inputOf(entityOps(entity).get, req);
    const stored = await app.entities.latest(ctx, urn, aspectsAsked(input, entity));
    if (stored.length === 0) {
      res.status(404).set('Not-Found-Reason', 'ENTITY').end();
      return;
    }
    res.json(shape(urn, stored, bool(input, 'systemMetadata')));
  });

  /** The aspect route's operation for a write, or a 400 naming why the aspect takes no such write. */
  const writeOperation = (entity: EntitySpec, aspect: AspectSpec | undefined, method: 'post' | 'patch') => {
    const what = method.toUpperCase();
    if (aspect === undefined)
      throw new ValidationError(`${what} takes an aspect: /openapi/${version}/entity/{type}/{urn}/{aspect}`);
    const operation = aspectOps(entity, aspect)[method];
    if (operation === undefined)
      throw new ValidationError(
        aspect.isKey
          ? `${aspect.name} is the key aspect of ${entity.name}: it is written with the entity`
          : `${aspect.name} is a time-series aspect: it is written, not patched`,
      );
    return { aspect, operation };
  };

  router.post('/:type/*rest', json, async (req, res) => {
    const target_ = target(req);
    const { urn, entity } = target_;
    const { aspect, operation } = writeOperation(entity, target_.aspect, 'post');
    const input = inputOf(operation, req);
    // v3 wraps the value ({value, systemMetadata?, headers?}); v2 takes the raw aspect.
    const body = (v2 ? { value: input.body } : input.body) as Json;
    const changeType = bool(input, 'createIfEntityNotExists')
      ? 'CREATE_ENTITY'
      : bool(input, 'createIfNotExists')
        ? 'CREATE'
        : 'UPSERT';
    const proposal = proposalOf(
      entity,
      urn,
      {
        aspect: aspect.name,
        value: body['value'],
        systemMetadata: body['systemMetadata'],
        headers: { ...((body['headers'] ?? {}) as Json), ...conditionHeaders(req) },
      },
      changeType,
    );
    // A time-series value is not kept in the aspect store: the answer is the value written.
    if (aspect.kind === 'timeseries') {
      const sync = !bool(input, 'async');
      await app.entityWrites.propose(requestContextOf(res), [proposal], { sync });
      res.status(sync ? 200 : 202).json(shapeSubmitted(res, input, urn, aspect.name, body));
      return;
    }
    const stored = await writeOne(res, entity, urn, aspect.name, proposal, input);
    if (stored === undefined) res.status(202).json(shapeSubmitted(res, input, urn, aspect.name, body));
    else res.json(stored);
  });

  router.patch('/:type/*rest', jsonPatch, async (req, res) => {
    const target_ = target(req);
    const { urn, entity } = target_;
    const { aspect, operation } = writeOperation(entity, target_.aspect, 'patch');
    const input = inputOf(operation, req);
    const headers = conditionHeaders(req);
    const proposal = proposalOf(entity, urn, { aspect: aspect.name, value: input.body, headers }, 'PATCH');
    const stored = await writeOne(res, entity, urn, aspect.name, proposal, input);
    if (stored === undefined) res.status(202).end();
    else res.json(stored);
  });

  router.delete('/:type/*rest', async (req, res) => {
    const { urn, entity, aspect } = target(req);
    const input = inputOf(
      aspect === undefined ? entityOps(entity).delete : aspectOps(entity, aspect).delete,
      req,
    );
    await app.entityWrites.delete(requestContextOf(res), {
      entity,
      urn,
      ...(aspect === undefined ? {} : { aspect: aspect.name }),
      aspects: aspect === undefined ? (aspectsAsked(input, entity) ?? []) : [],
      clear: bool(input, 'clear'),
    });
    res.status(200).end();
  });

  router.use((req: Request, res: Response) => {
    res.status(404).json({ error: `No endpoint ${req.method} ${req.originalUrl}.` });
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}
