import { EVENTS_POLL_OPERATION } from '../events-poll/events-poll-operation.js';
import { entityRegistry } from '@catalog/model';
import type { ApiGroup, JsonSchema, Operation, ResponseSpec } from '../../api-contract/operation.js';
import { GRAPHQL_OPERATIONS } from '../../graphql/graphql-operations.js';
import { OPERATION_ENDPOINTS } from '../../operations/operation-endpoints.js';
import { RELATIONSHIPS_V1_OPERATION, RESTLI_OPERATIONS } from '../../restli/restli-operations.js';
import { SCHEMA_REGISTRY_OPERATIONS } from '../../schema-registry/schema-registry-operations.js';
import { allEntityApiOperations } from '../entity-api/entity-operations.js';
import { TIMESERIES_SCROLL_OPERATION } from '../timeseries/timeseries-operations.js';
import { TIMELINE_V1_OPERATION, TIMELINE_V2_OPERATION } from '../timeline/timeline-operations.js';
import {
  LINEAGE_SCROLL_OPERATION,
  RELATIONSHIP_SCROLL_OPERATION,
} from '../edge-scroll/edge-scroll-operations.js';
import { AUDIT_SEARCH_OPERATION } from '../audit-events/audit-search-operation.js';
import { TRACE_WRITE_OPERATION } from '../trace/trace-operations.js';
import { TRACKING_OPERATION } from '../tracking/tracking-operations.js';
import { REGISTRY_OPERATIONS } from '../registry/registry-operations.js';
import { EXCLUDED_ENTITIES, entityApiComponents } from './entity-components.js';
import { OPENLINEAGE_OPERATION } from '../openlineage/openlineage-operations.js';
import { isPublicPath } from '../../auth/authentication-middleware.js';

type Json = Record<string, unknown>;

/** Every operation of the catalog's REST surface, the routes' own contracts. */
export function allOperations(): Operation[] {
  return [
    ...allEntityApiOperations(entityRegistry.entities().filter((e) => !EXCLUDED_ENTITIES.has(e.name))),
    TIMESERIES_SCROLL_OPERATION,
    TIMELINE_V2_OPERATION,
    TIMELINE_V1_OPERATION,
    RELATIONSHIPS_V1_OPERATION,
    RELATIONSHIP_SCROLL_OPERATION,
    LINEAGE_SCROLL_OPERATION,
    AUDIT_SEARCH_OPERATION,
    TRACE_WRITE_OPERATION,
    TRACKING_OPERATION,
    OPENLINEAGE_OPERATION,
    ...Object.values(REGISTRY_OPERATIONS),
    EVENTS_POLL_OPERATION,
    ...Object.values(RESTLI_OPERATIONS),
    ...OPERATION_ENDPOINTS,
    ...GRAPHQL_OPERATIONS,
    ...SCHEMA_REGISTRY_OPERATIONS,
  ];
}

const TITLES: Record<ApiGroup, string> = {
  '10-openapi-v3': 'Entity API',
  '40-operations': 'Operations',
  '50-openapi-v2': 'Entity API (v2, deprecated)',
  '60-openapi-v1': 'OpenAPI v1 (relationships, audit events, OpenLineage)',
  '70-restli': 'Rest.li endpoints',
  '80-graphql': 'GraphQL',
  '90-schema-registry': 'Schema registry',
};

/**
 * The OpenAPI 3.1 document, rendered from the operations the routes validate their requests against:
 * every REST endpoint of the catalog, or one group of them (`?group=`, named as the ecosystem's groups).
 * The entity API has a path per entity and aspect, lower-cased as the ecosystem writes them, with
 * aspect bodies generated from the registry's Avro schemas.
 */
export function openApiDocument(group?: ApiGroup): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const operation of allOperations()) {
    if (group !== undefined && operation.group !== group) continue;
    (paths[operation.path] ??= {})[operation.method] = renderOperation(operation);
  }
  const components = entityApiComponents('document');
  const schemas = group === undefined ? components : reachable(paths, components);
  return {
    openapi: '3.1.0',
    info: {
      title: group === undefined ? 'Metadata catalog API' : TITLES[group],
      version: group === '50-openapi-v2' ? 'v2' : 'v3',
      description:
        group === undefined
          ? 'Every REST endpoint of the catalog: the entity API (v3, and the deprecated v2), the Rest.li-style endpoints, GraphQL, operations and the schema registry.'
          : `The ${TITLES[group]} of the catalog; without ?group=, the document covers every REST endpoint.`,
    },
    servers: [{ url: '/' }],
    // Every operation needs a credential unless it says `security: []` (the public paths); Swagger UI
    // shows Authorize for it. A personal access token or a session token goes here; the system
    // client's `Basic id:secret` is accepted too, but is not for browsers.
    security: [{ [BEARER_SCHEME]: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal access token (GraphQL createAccessToken) or the session token of POST /logIn',
        },
      },
    },
  };
}

const BEARER_SCHEME = 'bearerAuth';

/**
 * What a urn parameter must look like: `urn:li:<entityType>:<id>` without control characters. The
 * routes check more (a balanced, known urn, with messages of their own); this lets generated requests
 * be mostly valid, and tells a reader the shape.
 */
export const URN_PATTERN = '^urn:li:[A-Za-z][A-Za-z0-9]*:[^\\u0000-\\u001f\\u007f]+$';

function parameterSchema(name: string, schema: JsonSchema): JsonSchema {
  return name === 'urn' && schema['type'] === 'string' ? { ...schema, pattern: URN_PATTERN } : schema;
}

function renderOperation(operation: Operation): Json {
  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(operation.responses))
    responses[status] = renderResponse(response);
  responses['400'] ??= renderResponse({
    description: 'The request is invalid; the body names the problem',
    schema: ERROR,
  });
  const isPublic = isPublicPath(operation.path);
  if (!isPublic) {
    responses['401'] ??= renderResponse({
      description: 'No credential, or one that is not valid; the body names the problem',
    });
  }
  responses['503'] ??= renderResponse({
    description: 'A dependency is unavailable; the body names it',
    schema: ERROR,
  });
  const body = operation.body;
  return {
    tags: [operation.tag],
    summary: operation.summary,
    ...(isPublic ? { security: [] } : {}),
    parameters: operation.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      ...(p.required ? { required: true } : {}),
      description: p.description,
      schema: parameterSchema(p.name, p.schema),
      ...(p.in === 'query' && p.schema['type'] === 'array' ? { style: 'form', explode: true } : {}),
    })),
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            required: body.required,
            content: Object.fromEntries(
              (body.mediaTypes ?? ['application/json']).map((type) => [type, { schema: body.schema }]),
            ),
          },
        }),
    responses,
  };
}

const ERROR: JsonSchema = { $ref: '#/components/schemas/Error' };

function renderResponse(response: ResponseSpec): Json {
  if (response.schema === undefined && response.mediaType === undefined)
    return { description: response.description };
  return {
    description: response.description,
    content: {
      [response.mediaType ?? 'application/json']:
        response.schema === undefined ? {} : { schema: response.schema },
    },
  };
}

/** The components the paths refer to, directly or through other components. */
function reachable(paths: unknown, components: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null)
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
          const name = value.slice('#/components/schemas/'.length);
          const schema = components[name];
          if (schema !== undefined && out[name] === undefined) {
            out[name] = schema;
            visit(schema);
          }
        } else visit(value);
      }
  };
  visit(paths);
  return out;
}
