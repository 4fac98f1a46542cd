import type { AspectSpec, EntitySpec } from '@catalog/model';
import {
  componentRef,
  jsonBody,
  pathParam,
  queryParam,
  success,
  type JsonSchema,
  type Operation,
  type Parameter,
} from '../../api-contract/operation.js';
import {
  aspectRequestComponent,
  entityPatchComponent,
  entityRequestComponent,
} from '../document/entity-components.js';

/** The largest page a scroll serves; a larger `count` is clamped to it, as the ecosystem clamps. */
export const MAX_SCROLL_COUNT = 10_000;

const URN = pathParam('urn', 'The entity urn, percent-encoded or raw (a raw urn may contain `/`)');
const bool = (name: string, fallback: boolean, description: string): Parameter =>
  queryParam(name, { type: 'boolean', default: fallback }, description);
const ASYNC = (fallback: boolean) =>
  bool('async', fallback, 'Answer once the write is durable (true, 202) or once it is stored (false)');
const SYSTEM_METADATA = bool('systemMetadata', false, 'Include systemMetadata');
const names = (name: string, description: string): Parameter =>
  queryParam(name, { type: 'array', items: { type: 'string' } }, description);
const ASPECTS = [
  names('aspects', 'Aspects to return, repeated or comma-separated (none: all); unknown names are ignored'),
  names('aspectNames', 'The older name of `aspects`'),
];

/** The query parameters of every scroll, per type and across types. */
export const SCROLL_PARAMETERS: readonly Parameter[] = [
  queryParam(
    'count',
    { type: 'integer', minimum: 0, default: 10 },
    `Entities per page; above ${MAX_SCROLL_COUNT} it is clamped`,
  ),
  queryParam('scrollId', { type: 'string' }, 'The scrollId of the previous page, verbatim'),
  queryParam('query', { type: 'string', default: '*' }, 'Full-text query'),
  queryParam('sort', { type: 'string' }, 'A field to sort by (deprecated: use sortCriteria)'),
  names('sortCriteria', 'Fields to sort by, in order (the urn breaks ties)'),
  queryParam(
    'sortOrder',
    { type: 'string', enum: ['ASCENDING', 'DESCENDING'], default: 'ASCENDING' },
    'Order of the sort fields',
  ),
  SYSTEM_METADATA,
  bool('skipCache', false, 'Accepted for compatibility; reads are never cached'),
  bool(
    'skipAggregation',
    true,
    "Count the entity types of every match for the cross-entity scroll's `entity` facet (false), or only of the page returned (true, the default)",
  ),
  bool(
    'scrollIdPerEntity',
    false,
    'Accepted for compatibility; the page-level scrollId continues every entity type at once',
  ),
  bool('includeSoftDelete', false, 'Include soft-deleted entities'),
  queryParam('sliceId', { type: 'integer', minimum: 0 }, 'Which slice to scroll (with sliceMax)'),
  queryParam(
    'sliceMax',
    { type: 'integer', minimum: 1 },
    'Into how many disjoint slices the scroll is split',
  ),
  queryParam(
    'pitKeepAlive',
    { type: 'string', default: '5m' },
    'Accepted for compatibility; scrolls are keyset-paged and need no point in time',
  ),
];

const SCROLL_RESPONSE: JsonSchema = componentRef('ScrollResponse');
const ERROR_404 = { '404': { description: 'Not found (no body)' } };

export interface EntityOperations {
  readonly scroll: Operation;
  readonly batchUpsert: Operation;
  readonly batchPatch: Operation;
  readonly batchGet: Operation;
  readonly get: Operation;
  readonly head: Operation;
  readonly delete: Operation;
}

export interface AspectOperations {
  readonly get: Operation;
  readonly head: Operation;
  readonly delete: Operation;
  /** Every aspect but the key is written through the aspect routes; versioned ones are patched. */
  readonly post?: Operation;
  readonly patch?: Operation;
}

const entityCache = new Map<string, EntityOperations>();
const aspectCache = new Map<string, AspectOperations>();

/** The v3 routes of one entity type, `/openapi/v3/entity/<entity>`, lower-cased as the ecosystem writes them. */
export function entityOperations(entity: EntitySpec): EntityOperations {
  const known = entityCache.get(entity.name);
  if (known !== undefined) return known;
  const base = `/openapi/v3/entity/${entity.name.toLowerCase()}`;
  const tag = entity.name;
  const request = componentRef(entityRequestComponent(entity));
  const v3 = (
    method: Operation['method'],
    path: string,
    summary: string,
    rest: Partial<Operation>,
  ): Operation => ({
    group: '10-openapi-v3',
    method,
    path,
    tag,
    summary,
    parameters: [],
    responses: success('OK'),
    ...rest,
  });
  const ops: EntityOperations = {
    scroll: v3('get', base, `Scroll ${entity.name} entities`, {
      parameters: [...ASPECTS, ...SCROLL_PARAMETERS],
      responses: success('A page of entities', SCROLL_RESPONSE),
    }),
    batchUpsert: v3('post', base, `Create or update ${entity.name} entities`, {
      parameters: [ASYNC(true), SYSTEM_METADATA],
      body: jsonBody({ type: 'array', items: request }),
      responses: {
        ...success('The stored entities, with what their creation stored', { type: 'array', items: request }),
        '202': {
          description: 'Accepted (async): the submitted aspects',
          schema: { type: 'array', items: request },
        },
      },
    }),
    batchPatch: v3('patch', base, `Patch ${entity.name} entities`, {
      parameters: [ASYNC(true), SYSTEM_METADATA],
      body: jsonBody({ type: 'array', items: componentRef(entityPatchComponent(entity)) }, true, [
        'application/json',
        'application/json-patch+json',
      ]),
      responses: {
        ...success('The patched entities', { type: 'array', items: request }),
        '202': { description: 'Accepted (async); no body' },
      },
    }),
    batchGet: v3('post', `${base}/batchGet`, `Read several ${entity.name} entities`, {
      parameters: [SYSTEM_METADATA],
      body: jsonBody({ type: 'array', items: componentRef('BatchGetItem') }),
      responses: success('The entities found', { type: 'array', items: request }),
    }),
    get: v3('get', `${base}/{urn}`, `Read a ${entity.name}`, {
      parameters: [URN, ...ASPECTS, SYSTEM_METADATA],
      responses: { ...success('The entity', request), ...ERROR_404 },
    }),
    head: v3('head', `${base}/{urn}`, `Whether a ${entity.name} exists`, {
      parameters: [URN],
      responses: { '204': { description: 'It exists' }, ...ERROR_404 },
    }),
    delete: v3('delete', `${base}/{urn}`, `Delete a ${entity.name}, or some of its aspects`, {
      parameters: [
        URN,
        names('aspects', 'Aspects to delete (none: the entity)'),
        bool('clear', false, 'Delete every aspect but the key'),
      ],
      responses: success('Deleted (no body)'),
    }),
  };
  entityCache.set(entity.name, ops);
  return ops;
}

/** The v3 routes of one aspect, `/openapi/v3/entity/<entity>/{urn}/<aspect>`. */
export function aspectOperations(entity: EntitySpec, aspect: AspectSpec): AspectOperations {
  const key = `${entity.name}/${aspect.name}`;
  const known = aspectCache.get(key);
  if (known !== undefined) return known;
  const path = `/openapi/v3/entity/${entity.name.toLowerCase()}/{urn}/${aspect.name.toLowerCase()}`;
  const wrapper = componentRef(aspectRequestComponent(aspect));
  const v3 = (method: Operation['method'], summary: string, rest: Partial<Operation>): Operation => ({
    group: '10-openapi-v3',
    method,
    path,
    tag: entity.name,
    summary,
    parameters: [URN],
    responses: success('OK'),
    ...rest,
  });
  const patchable = aspect.kind === 'versioned' && !aspect.isKey;
  const ops: AspectOperations = {
    get: v3('get', `Read the ${aspect.name} of a ${entity.name}`, {
      parameters: [
        URN,
        queryParam(
          'version',
          { type: 'integer', minimum: 0, default: 0 },
          aspect.kind === 'timeseries'
            ? 'Newest value at or before this epoch-ms time (0: newest)'
            : 'Version (0: latest)',
        ),
        SYSTEM_METADATA,
      ],
      responses: { ...success('The aspect', wrapper), ...ERROR_404 },
    }),
    head: v3('head', `Whether a ${entity.name} has ${aspect.name}`, {
      responses: { '204': { description: 'It has' }, ...ERROR_404 },
    }),
    delete: v3('delete', `Delete the ${aspect.name} of a ${entity.name}`, {
      responses: success('Deleted (no body)'),
    }),
    ...(aspect.isKey
      ? {}
      : {
          post: v3('post', `Write the ${aspect.name} of a ${entity.name}`, {
            parameters: [
              URN,
              ASYNC(false),
              SYSTEM_METADATA,
              bool('createIfNotExists', true, 'Refuse (400) when the aspect exists'),
              bool('createIfEntityNotExists', false, 'Refuse (400) when the entity exists'),
            ],
            body: jsonBody(wrapper),
            responses: {
              ...success('The stored aspect', componentRef(entityRequestComponent(entity))),
              '202': { description: 'Accepted (async): the submitted aspect' },
            },
          }),
        }),
    ...(patchable
      ? {
          patch: v3('patch', `Patch the ${aspect.name} of a ${entity.name}`, {
            parameters: [URN, ASYNC(false), SYSTEM_METADATA],
            body: jsonBody(componentRef('AspectPatchOrOps'), true, [
              'application/json',
              'application/json-patch+json',
            ]),
            responses: {
              ...success('The patched aspect', componentRef(entityRequestComponent(entity))),
              '202': { description: 'Accepted (async); no body' },
            },
          }),
        }
      : {}),
  };
  aspectCache.set(key, ops);
  return ops;
}

const byType: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'object' } },
  description: 'Entity name → the items of the per-type route',
};

/** The v3 routes across entity types. */
export const CROSS_ENTITY_OPERATIONS = {
  scroll: {
    group: '10-openapi-v3',
    method: 'post',
    path: '/openapi/v3/entity/scroll',
    tag: 'entities',
    summary: 'Scroll entities of several types',
    parameters: SCROLL_PARAMETERS,
    body: jsonBody(componentRef('CrossEntitiesScrollRequest'), false),
    responses: success('A page', SCROLL_RESPONSE),
  },
  genericUpsert: {
    group: '10-openapi-v3',
    method: 'post',
    path: '/openapi/v3/entity/generic',
    tag: 'entities',
    summary: 'Write entities of several types',
    parameters: [ASYNC(true), SYSTEM_METADATA],
    body: jsonBody(byType),
    responses: { ...success('The stored entities by type'), '202': { description: 'Accepted (async)' } },
  },
  genericPatch: {
    group: '10-openapi-v3',
    method: 'patch',
    path: '/openapi/v3/entity/generic',
    tag: 'entities',
    summary: 'Patch entities of several types',
    parameters: [ASYNC(true), SYSTEM_METADATA],
    body: jsonBody(byType),
    responses: { ...success('The patched entities by type'), '202': { description: 'Accepted (async)' } },
  },
  genericBatchGet: {
    group: '10-openapi-v3',
    method: 'post',
    path: '/openapi/v3/entity/generic/batchGet',
    tag: 'entities',
    summary: 'Read entities of several types',
    parameters: [SYSTEM_METADATA],
    body: jsonBody(byType),
    responses: success('The entities by type'),
  },
} as const satisfies Record<string, Operation>;

const V2_ENTITY = pathParam('entity', 'Entity name, e.g. dataset');
const V2_ASPECT = pathParam('aspect', 'Aspect name');
const v2 = (
  method: Operation['method'],
  path: string,
  summary: string,
  rest: Partial<Operation>,
): Operation => ({
  group: '50-openapi-v2',
  method,
  path: `/openapi/v2/entity${path}`,
  tag: 'entities (v2, deprecated)',
  summary,
  parameters: [],
  responses: success('OK'),
  ...rest,
});

/** The deprecated v2 routes: the same resources, aspects nested under `aspects`, raw aspect bodies. */
export const V2_OPERATIONS = {
  scroll: v2('get', '/{entity}', 'Scroll entities', {
    parameters: [V2_ENTITY, ...ASPECTS, ...SCROLL_PARAMETERS],
    responses: success('A page', componentRef('ScrollResponseV2')),
  }),
  batchUpsert: v2('post', '/{entity}', 'Create or update entities', {
    parameters: [V2_ENTITY, ASYNC(true), SYSTEM_METADATA],
    body: jsonBody({ type: 'array', items: componentRef('EntityRequestV2') }),
  }),
  batchPatch: v2('patch', '/{entity}', 'Patch entities', {
    parameters: [V2_ENTITY, ASYNC(true), SYSTEM_METADATA],
    body: jsonBody({ type: 'array', items: componentRef('EntityPatchRequestV2') }),
  }),
  batchGet: v2('post', '/batch/{entity}', 'Read several entities', {
    parameters: [V2_ENTITY],
    body: jsonBody({
      type: 'object',
      properties: {
        urns: { type: 'array', items: { type: 'string' } },
        aspectNames: { type: 'array', items: { type: 'string' } },
        withSystemMetadata: { type: 'boolean', default: false },
      },
      required: ['urns'],
    }),
  }),
  get: v2('get', '/{entity}/{urn}', 'Read an entity', {
    parameters: [V2_ENTITY, URN, ...ASPECTS, SYSTEM_METADATA],
    responses: { ...success('The entity'), ...ERROR_404 },
  }),
  head: v2('head', '/{entity}/{urn}', 'Whether an entity exists', {
    parameters: [V2_ENTITY, URN],
    responses: { '204': { description: 'It exists' }, ...ERROR_404 },
  }),
  delete: v2('delete', '/{entity}/{urn}', 'Delete an entity, or some of its aspects', {
    parameters: [
      V2_ENTITY,
      URN,
      names('aspects', 'Aspects to delete'),
      bool('clear', false, 'All but the key'),
    ],
  }),
  getAspect: v2('get', '/{entity}/{urn}/{aspect}', 'Read an aspect', {
    parameters: [
      V2_ENTITY,
      URN,
      V2_ASPECT,
      queryParam('version', { type: 'integer', minimum: 0, default: 0 }, 'Version (0: latest)'),
      SYSTEM_METADATA,
    ],
    responses: { ...success('The entity with that aspect'), ...ERROR_404 },
  }),
  headAspect: v2('head', '/{entity}/{urn}/{aspect}', 'Whether an aspect exists', {
    parameters: [V2_ENTITY, URN, V2_ASPECT],
    responses: { '204': { description: 'It exists' }, ...ERROR_404 },
  }),
  postAspect: v2('post', '/{entity}/{urn}/{aspect}', 'Write an aspect (the raw value)', {
    parameters: [
      V2_ENTITY,
      URN,
      V2_ASPECT,
      ASYNC(false),
      SYSTEM_METADATA,
      bool('createIfNotExists', true, 'Refuse (400) when the aspect exists'),
      bool('createIfEntityNotExists', false, 'Refuse (400) when the entity exists'),
    ],
    body: jsonBody({ type: 'object', description: 'The aspect value' }),
  }),
  patchAspect: v2('patch', '/{entity}/{urn}/{aspect}', 'Patch an aspect', {
    parameters: [V2_ENTITY, URN, V2_ASPECT, ASYNC(false), SYSTEM_METADATA],
    body: jsonBody(componentRef('AspectPatchOrOps'), true, [
      'application/json-patch+json',
      'application/json',
    ]),
  }),
  deleteAspect: v2('delete', '/{entity}/{urn}/{aspect}', 'Delete an aspect', {
    parameters: [V2_ENTITY, URN, V2_ASPECT],
  }),
} as const satisfies Record<string, Operation>;

/** Every entity-API operation, for the document. */
export function allEntityApiOperations(entities: readonly EntitySpec[]): Operation[] {
  const out: Operation[] = [];
  for (const entity of entities) {
    out.push(...Object.values(entityOperations(entity)));
    for (const aspect of entity.aspects.values()) {
      const ops = aspectOperations(entity, aspect);
      out.push(...(Object.values(ops) as Operation[]));
    }
  }
  out.push(...Object.values(CROSS_ENTITY_OPERATIONS), ...Object.values(V2_OPERATIONS));
  return out;
}
