import { entityRegistry } from '@catalog/model';
import { aspectJsonSchema, componentName, schemaRef, type JsonSchema } from './avro-json-schema.js';

type Json = Record<string, unknown>;

/** The entity the ecosystem leaves out of its generated document. */
const EXCLUDED = new Set(['dataHubOpenAPISchema']);

const ok = (description: string, schema?: JsonSchema): Json => ({
  description,
  ...(schema === undefined ? {} : { content: { 'application/json': { schema } } }),
});
const jsonBody = (schema: JsonSchema, required = true): Json => ({
  required,
  content: { 'application/json': { schema } },
});
const query = (name: string, schema: JsonSchema, description: string): Json => ({
  name,
  in: 'query',
  schema,
  description,
});
const path = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
const ERROR: JsonSchema = { $ref: '#/components/schemas/Error' };
const errors = (): Json => ({
  '400': ok('The request is invalid; the body names the problem', ERROR),
  '503': ok('A dependency is unavailable; the body names it', ERROR),
});

const URN_PARAM = path('urn', 'The entity urn, percent-encoded or raw');
const ASYNC = (fallback: boolean) =>
  query(
    'async',
    { type: 'boolean', default: fallback },
    'Answer once the write is durable (true) or stored (false)',
  );
const SYSTEM_METADATA = query(
  'systemMetadata',
  { type: 'boolean', default: false },
  'Include systemMetadata',
);

/**
 * The OpenAPI 3.1 document of every REST endpoint of the catalog: the Rest.li-style routes, GraphQL,
 * operations, the schema registry, and the OpenAPI v3 entity API generated from the entity registry
 * (one path per entity and per aspect, lower-cased as the ecosystem writes them, aspect bodies from the
 * registry's Avro schemas), plus the deprecated v2 entity API.
 */
export function openApiDocument(): Json {
  const named = new Map<string, JsonSchema>();
  const paths: Record<string, Json> = { ...restliPaths(), ...operationPaths() };
  const aspectSchemas = new Map<string, JsonSchema>();
  for (const entity of entityRegistry.entities()) {
    if (EXCLUDED.has(entity.name)) continue;
    const base = `/openapi/v3/entity/${entity.name.toLowerCase()}`;
    const entityProps: Record<string, JsonSchema> = { urn: { type: 'string' } };
    for (const aspect of entity.aspects.values()) {
      if (!aspectSchemas.has(aspect.name)) aspectSchemas.set(aspect.name, aspectJsonSchema(aspect, named));
      entityProps[aspect.name] = { $ref: `#/components/schemas/${aspectRequest(aspect.recordName)}` };
    }
    const entitySchema: JsonSchema = { type: 'object', properties: entityProps, required: ['urn'] };
    const tag = entity.name;
    paths[base] = {
      get: op(
        tag,
        `Scroll ${entity.name} entities`,
        [
          query('count', { type: 'integer', default: 10, maximum: 10000 }, 'Entities per page'),
          query('scrollId', { type: 'string' }, 'Where the previous page ended'),
          query('query', { type: 'string', default: '*' }, 'Full-text query'),
          query('aspects', { type: 'array', items: { type: 'string' } }, 'Aspects to return (none: all)'),
          query('includeSoftDelete', { type: 'boolean', default: false }, 'Include soft-deleted entities'),
          SYSTEM_METADATA,
        ],
        undefined,
        ok('A page of entities', { $ref: '#/components/schemas/ScrollResponse' }),
      ),
      post: op(
        tag,
        `Create or update ${entity.name} entities`,
        [ASYNC(true), SYSTEM_METADATA],
        jsonBody({ type: 'array', items: entitySchema }),
        ok('The stored entities (202 when async)', { type: 'array', items: entitySchema }),
      ),
      patch: op(
        tag,
        `Patch ${entity.name} entities`,
        [ASYNC(true), SYSTEM_METADATA],
        jsonBody({
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: { value: { $ref: '#/components/schemas/AspectPatch' } },
            },
            properties: { urn: { type: 'string' } },
            required: ['urn'],
          },
        }),
        ok('The patched entities (202 without a body when async)'),
      ),
    };
    paths[`${base}/batchGet`] = {
      post: op(
        tag,
        `Read several ${entity.name} entities`,
        [SYSTEM_METADATA],
        jsonBody({
          type: 'array',
          items: { type: 'object', properties: { urn: { type: 'string' } }, required: ['urn'] },
        }),
        ok('The entities found', { type: 'array', items: entitySchema }),
      ),
    };
    paths[`${base}/{urn}`] = {
      get: op(
        tag,
        `Read a ${entity.name}`,
        [
          URN_PARAM,
          query('aspects', { type: 'array', items: { type: 'string' } }, 'Aspects to return'),
          SYSTEM_METADATA,
        ],
        undefined,
        ok('The entity', entitySchema),
        { '404': { description: 'No such entity' } },
      ),
      head: op(
        tag,
        `Whether a ${entity.name} exists`,
        [URN_PARAM],
        undefined,
        { description: 'It exists' },
        { '404': { description: 'No such entity' } },
        '204',
      ),
      delete: op(
        tag,
        `Delete a ${entity.name}, or some of its aspects`,
        [
          URN_PARAM,
          query(
            'aspects',
            { type: 'array', items: { type: 'string' } },
            'Aspects to delete (none: the entity)',
          ),
          query('clear', { type: 'boolean', default: false }, 'Delete every aspect but the key'),
        ],
        undefined,
        ok('Deleted'),
      ),
    };
    for (const aspect of entity.aspects.values()) {
      const wrapper: JsonSchema = { $ref: `#/components/schemas/${aspectRequest(aspect.recordName)}` };
      const aspectOps: Json = {
        get: op(
          tag,
          `Read the ${aspect.name} of a ${entity.name}`,
          [
            URN_PARAM,
            query('version', { type: 'integer', default: 0 }, 'Version (0: latest)'),
            SYSTEM_METADATA,
          ],
          undefined,
          ok('The aspect', wrapper),
          { '404': { description: 'No such aspect' } },
        ),
        head: op(
          tag,
          `Whether a ${entity.name} has ${aspect.name}`,
          [URN_PARAM],
          undefined,
          { description: 'It has' },
          { '404': { description: 'It has not' } },
          '204',
        ),
        delete: op(
          tag,
          `Delete the ${aspect.name} of a ${entity.name}`,
          [URN_PARAM],
          undefined,
          ok('Deleted'),
        ),
      };
      if (aspect.kind === 'versioned' && !aspect.isKey) {
        aspectOps['post'] = op(
          tag,
          `Write the ${aspect.name} of a ${entity.name}`,
          [
            URN_PARAM,
            ASYNC(false),
            SYSTEM_METADATA,
            query(
              'createIfNotExists',
              { type: 'boolean', default: true },
              'Refuse (400) when the aspect exists',
            ),
          ],
          jsonBody(wrapper),
          ok('The stored aspect', { type: 'object' }),
        );
        aspectOps['patch'] = op(
          tag,
          `Patch the ${aspect.name} of a ${entity.name}`,
          [URN_PARAM, ASYNC(false), SYSTEM_METADATA],
          jsonBody({ $ref: '#/components/schemas/AspectPatch' }),
          ok('The patched aspect', { type: 'object' }),
        );
      }
      paths[`${base}/{urn}/${aspect.name.toLowerCase()}`] = aspectOps;
    }
  }
  paths['/openapi/v3/entity/scroll'] = {
    post: op(
      'entities',
      'Scroll entities of several types',
      [
        query('count', { type: 'integer', default: 10 }, 'Entities per page'),
        query('scrollId', { type: 'string' }, 'Where the previous page ended'),
        query('query', { type: 'string', default: '*' }, 'Full-text query'),
      ],
      jsonBody(
        {
          type: 'object',
          properties: {
            entities: { type: 'array', items: { type: 'string' } },
            aspects: { type: 'array', items: { type: 'string' } },
          },
        },
        false,
      ),
      ok('A page', { $ref: '#/components/schemas/ScrollResponse' }),
    ),
  };
  paths['/openapi/v3/entity/generic'] = {
    post: op(
      'entities',
      'Write entities of several types',
      [ASYNC(true), SYSTEM_METADATA],
      jsonBody({ type: 'object', additionalProperties: { type: 'array', items: { type: 'object' } } }),
      ok('The stored entities by type'),
    ),
    patch: op(
      'entities',
      'Patch entities of several types',
      [ASYNC(true), SYSTEM_METADATA],
      jsonBody({ type: 'object', additionalProperties: { type: 'array', items: { type: 'object' } } }),
      ok('The patched entities by type'),
    ),
  };
  paths['/openapi/v3/entity/generic/batchGet'] = {
    post: op(
      'entities',
      'Read entities of several types',
      [SYSTEM_METADATA],
      jsonBody({ type: 'object', additionalProperties: { type: 'array', items: { type: 'object' } } }),
      ok('The entities by type'),
    ),
  };
  Object.assign(paths, v2Paths());
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of named) schemas[componentName(name)] = schema;
  for (const entity of entityRegistry.entities())
    for (const aspect of EXCLUDED.has(entity.name) ? [] : entity.aspects.values())
      schemas[aspectRequest(aspect.recordName)] = {
        type: 'object',
        properties: {
          value: { $ref: schemaRef(aspect.recordName) },
          systemMetadata: { $ref: '#/components/schemas/SystemMetadata' },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['value'],
      };
  Object.assign(schemas, sharedSchemas());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Metadata catalog API',
      version: 'v3',
      description:
        'Every REST endpoint of the catalog: the entity API (v3, and the deprecated v2), the Rest.li-style endpoints, GraphQL, operations and the schema registry.',
    },
    servers: [{ url: '/' }],
    paths,
    components: { schemas },
  };
}

function aspectRequest(recordName: string): string {
  return `${componentName(recordName)}AspectRequest_v3`;
}

function op(
  tag: string,
  summary: string,
  parameters: Json[],
  requestBody: Json | undefined,
  success: Json,
  more: Json = {},
  code = '200',
): Json {
  return {
    tags: [tag],
    summary,
    parameters,
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: { [code]: success, ...more, ...errors() },
  };
}

function action(names: readonly string[]): Json {
  return {
    name: 'action',
    in: 'query',
    required: true,
    schema: { type: 'string', enum: [...names] },
    description: 'The action',
  };
}

function restliPaths(): Record<string, Json> {
  const anyBody = jsonBody({ type: 'object' });
  const anyOk = ok('The result', { type: 'object' });
  const restli = 'rest.li';
  return {
    '/aspects': {
      post: op(
        restli,
        'Ingest proposals, or read time-series values',
        [action(['ingestProposal', 'ingestProposalBatch', 'getTimeseriesAspectValues'])],
        anyBody,
        anyOk,
      ),
    },
    '/aspects/{urn}': {
      get: op(
        restli,
        'One version of one aspect',
        [
          URN_PARAM,
          query('aspect', { type: 'string' }, 'Aspect name'),
          query('version', { type: 'integer', default: 0 }, 'Version'),
        ],
        undefined,
        anyOk,
      ),
    },
    '/entitiesV2/{urn}': {
      get: op(
        restli,
        'Every aspect of an entity',
        [URN_PARAM, query('aspects', { type: 'string' }, 'List(a,b)')],
        undefined,
        anyOk,
      ),
    },
    '/entitiesV2': {
      get: op(
        restli,
        'Several entities',
        [query('ids', { type: 'string' }, 'List(urn,urn)')],
        undefined,
        anyOk,
      ),
    },
    '/entities/{urn}': { get: op(restli, 'An entity as a legacy snapshot', [URN_PARAM], undefined, anyOk) },
    '/entities': {
      post: op(
        restli,
        'Search, browse and autocomplete',
        [action(['search', 'browse', 'autocomplete'])],
        anyBody,
        anyOk,
      ),
    },
    '/relationships': {
      get: op(
        restli,
        'Related entities',
        [
          query('urn', { type: 'string' }, 'Entity urn'),
          query('direction', { type: 'string', enum: ['INCOMING', 'OUTGOING'] }, 'Direction'),
          query('types', { type: 'string' }, 'A name or List(a,b)'),
          query('start', { type: 'integer' }, 'First result'),
          query('count', { type: 'integer' }, 'Results'),
        ],
        undefined,
        anyOk,
      ),
    },
    '/openapi/relationships/v1': {
      get: op(
        restli,
        'Related entities, as the SDK pages them',
        [
          query('urn', { type: 'string' }, 'Entity urn'),
          query('direction', { type: 'string', enum: ['INCOMING', 'OUTGOING'] }, 'Direction'),
          query('relationshipTypes', { type: 'array', items: { type: 'string' } }, 'Relationship names'),
          query('start', { type: 'integer' }, 'First result'),
          query('count', { type: 'integer' }, 'Results'),
        ],
        undefined,
        anyOk,
      ),
    },
    '/openapi/v2/timeseries/{entityName}/{aspectName}': {
      get: op(
        'timeseries',
        "Every entity's values of a time-series aspect, newest first, in scrolled pages",
        [
          path('entityName', 'Entity type, e.g. dataset'),
          path('aspectName', 'A time-series aspect of that entity, e.g. datasetProfile'),
          query('count', { type: 'integer', default: 10 }, 'Page size; above 10,000 it is clamped'),
          query('scrollId', { type: 'string' }, 'The scrollId of the previous page'),
          query('startTimeMillis', { type: 'integer' }, 'Earliest timestamp (inclusive)'),
          query('endTimeMillis', { type: 'integer' }, 'Latest timestamp (inclusive)'),
          query('systemMetadata', { type: 'boolean', default: false }, 'Include system metadata'),
        ],
        undefined,
        anyOk,
      ),
    },
    '/api/graphql': {
      post: op(
        'graphql',
        'GraphQL (POST only)',
        [],
        jsonBody({
          type: 'object',
          properties: {
            query: { type: 'string' },
            variables: { type: 'object' },
            operationName: { type: 'string' },
          },
          required: ['query'],
        }),
        anyOk,
      ),
    },
    '/api/v2/graphql': {
      post: op(
        'graphql',
        'GraphQL under the frontend path (POST only)',
        [],
        jsonBody({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
        anyOk,
      ),
    },
    '/api/graphiql': {
      get: op('graphql', 'The GraphiQL explorer (HTML)', [], undefined, { description: 'An HTML page' }),
    },
  };
}

function operationPaths(): Record<string, Json> {
  const anyOk = ok('The result', { type: 'object' });
  const ops = 'operations';
  const restore = op(
    ops,
    'Restore search indices from the store',
    [action(['restoreIndices'])],
    jsonBody(
      {
        type: 'object',
        properties: {
          urn: { type: 'string' },
          aspect: { type: 'string' },
          urnLike: { type: 'string' },
          start: { type: 'integer', default: 0 },
          batchSize: { type: 'integer', default: 10 },
        },
      },
      false,
    ),
    anyOk,
  );
  const registry = 'schema registry';
  const sr = '/schema-registry/api';
  return {
    '/health': { get: op(ops, 'Liveness', [], undefined, { description: 'Up' }) },
    '/health/live': { get: op(ops, 'Liveness', [], undefined, { description: 'Up' }) },
    '/config': { get: op(ops, 'Server configuration, as the SDK reads it', [], undefined, anyOk) },
    '/gms/operations': { post: restore },
    '/api/gms/operations': { post: restore },
    '/operations': { post: restore },
    '/openapi/operations/messaging/transport': {
      get: op(ops, 'Which event log carries the pipeline', [], undefined, anyOk),
    },
    '/openapi/operations/messaging/{kind}/consumer/lag': {
      get: op(ops, 'Consumer lag', [path('kind', 'mcp, mcl or mcl-timeseries')], undefined, anyOk),
    },
    '/openapi/v3/api-docs': { get: op(ops, 'This document', [], undefined, anyOk) },
    '/openapi/v3/api-docs.yaml': {
      get: op(ops, 'This document, as YAML', [], undefined, { description: 'YAML' }),
    },
    '/restli/docs': {
      get: op(ops, 'The Rest.li endpoints, browsable (HTML)', [], undefined, { description: 'An HTML page' }),
    },
    '/openapi/swagger-ui/index.html': {
      get: op(ops, 'Swagger UI over this document (HTML)', [], undefined, { description: 'An HTML page' }),
    },
    [`${sr}/subjects`]: { get: op(registry, 'Subjects', [], undefined, anyOk) },
    [`${sr}/schemas/types`]: { get: op(registry, 'Schema types', [], undefined, anyOk) },
    [`${sr}/schemas/ids/{id}`]: {
      get: op(registry, 'A schema by id', [path('id', 'Schema id')], undefined, anyOk),
    },
    [`${sr}/schemas/ids/{id}/versions`]: {
      get: op(registry, 'Subject versions of a schema', [path('id', 'Schema id')], undefined, anyOk),
    },
    [`${sr}/subjects/{subject}/versions`]: {
      get: op(registry, 'Versions of a subject', [path('subject', 'Subject')], undefined, anyOk),
      post: op(
        registry,
        'Register a schema',
        [path('subject', 'Subject')],
        jsonBody({ type: 'object' }),
        anyOk,
      ),
    },
    [`${sr}/subjects/{subject}/versions/{version}`]: {
      get: op(
        registry,
        'A subject version',
        [path('subject', 'Subject'), path('version', 'Version or latest')],
        undefined,
        anyOk,
      ),
    },
    [`${sr}/subjects/{subject}/versions/{version}/schema`]: {
      get: op(
        registry,
        'The schema of a subject version',
        [path('subject', 'Subject'), path('version', 'Version or latest')],
        undefined,
        anyOk,
      ),
    },
    [`${sr}/subjects/{subject}`]: {
      post: op(
        registry,
        'Look up a schema under a subject',
        [path('subject', 'Subject')],
        jsonBody({ type: 'object' }),
        anyOk,
      ),
    },
    [`${sr}/compatibility/subjects/{subject}/versions/{version}`]: {
      post: op(
        registry,
        'Check compatibility',
        [path('subject', 'Subject'), path('version', 'Version')],
        jsonBody({ type: 'object' }),
        anyOk,
      ),
    },
    [`${sr}/compatibility/subjects/{subject}/versions`]: {
      post: op(
        registry,
        'Check compatibility',
        [path('subject', 'Subject')],
        jsonBody({ type: 'object' }),
        anyOk,
      ),
    },
    [`${sr}/config`]: {
      get: op(registry, 'Compatibility level', [], undefined, anyOk),
      put: op(registry, 'Set the compatibility level', [], jsonBody({ type: 'object' }), anyOk),
    },
    [`${sr}/config/{subject}`]: {
      get: op(registry, 'Compatibility level of a subject', [path('subject', 'Subject')], undefined, anyOk),
      put: op(registry, 'Set it', [path('subject', 'Subject')], jsonBody({ type: 'object' }), anyOk),
    },
  };
}

function v2Paths(): Record<string, Json> {
  const anyOk = ok('The result', { type: 'object' });
  const v2 = 'entities (v2, deprecated)';
  const entity = path('entity', 'Entity name');
  const aspect = path('aspect', 'Aspect name');
  return {
    '/openapi/v2/entity/{entity}': {
      get: op(
        v2,
        'Scroll entities',
        [
          entity,
          query('count', { type: 'integer', default: 10 }, 'Per page'),
          query('scrollId', { type: 'string' }, 'Continuation'),
        ],
        undefined,
        anyOk,
      ),
      post: op(
        v2,
        'Create or update entities',
        [entity, ASYNC(true)],
        jsonBody({ type: 'array', items: { type: 'object' } }),
        anyOk,
      ),
    },
    '/openapi/v2/entity/batch/{entity}': {
      post: op(
        v2,
        'Read several entities',
        [entity],
        jsonBody({
          type: 'object',
          properties: {
            urns: { type: 'array', items: { type: 'string' } },
            aspectNames: { type: 'array', items: { type: 'string' } },
          },
        }),
        anyOk,
      ),
    },
    '/openapi/v2/entity/{entity}/{urn}': {
      get: op(v2, 'Read an entity', [entity, URN_PARAM], undefined, anyOk),
      head: op(
        v2,
        'Whether an entity exists',
        [entity, URN_PARAM],
        undefined,
        { description: 'It exists' },
        {},
        '204',
      ),
      delete: op(v2, 'Delete an entity', [entity, URN_PARAM], undefined, anyOk),
    },
    '/openapi/v2/entity/{entity}/{urn}/{aspect}': {
      get: op(v2, 'Read an aspect', [entity, URN_PARAM, aspect], undefined, anyOk),
      head: op(
        v2,
        'Whether an aspect exists',
        [entity, URN_PARAM, aspect],
        undefined,
        { description: 'It exists' },
        {},
        '204',
      ),
      post: op(
        v2,
        'Write an aspect (the raw value)',
        [entity, URN_PARAM, aspect, ASYNC(false)],
        jsonBody({ type: 'object' }),
        anyOk,
      ),
      patch: op(
        v2,
        'Patch an aspect (application/json-patch+json)',
        [entity, URN_PARAM, aspect],
        jsonBody({ $ref: '#/components/schemas/AspectPatch' }),
        anyOk,
      ),
      delete: op(v2, 'Delete an aspect', [entity, URN_PARAM, aspect], undefined, anyOk),
    },
  };
}

function sharedSchemas(): Record<string, JsonSchema> {
  return {
    Error: {
      type: 'object',
      properties: { error: { type: 'string' }, message: { type: 'string' } },
      required: ['error'],
    },
    SystemMetadata: { type: 'object', additionalProperties: true },
    ScrollResponse: {
      type: 'object',
      properties: {
        scrollId: { type: 'string' },
        entities: { type: 'array', items: { type: 'object' } },
        totalCount: { type: 'integer' },
        facets: { type: 'array', items: { type: 'object' } },
      },
    },
    AspectPatch: {
      type: 'object',
      properties: {
        patch: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
              path: { type: 'string' },
              from: { type: 'string' },
              value: {},
            },
            required: ['op', 'path'],
          },
        },
        arrayPrimaryKeys: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
        forceGenericPatch: { type: 'boolean', default: false },
      },
      required: ['patch'],
    },
  };
}
