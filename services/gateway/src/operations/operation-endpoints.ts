import { jsonBody, pathParam, queryParam, success, type Operation } from '../api-contract/operation.js';
import { API_GROUPS } from '../api-contract/operation.js';

const ANY_OK = success('The result', { type: 'object' });
const page = (description: string) => ({ '200': { description, mediaType: 'text/html' } });
const ops = (
  method: Operation['method'],
  path: string,
  summary: string,
  rest: Partial<Operation> = {},
): Operation => ({
  group: '40-operations',
  method,
  path,
  tag: 'operations',
  summary,
  parameters: [],
  responses: ANY_OK,
  ...rest,
});

const restore = (path: string): Operation =>
  ops('post', path, 'Restore search indices from the store', {
    parameters: [queryParam('action', { type: 'string', enum: ['restoreIndices'] }, 'The action', true)],
    body: jsonBody(
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
  });

const GROUP = queryParam(
  'group',
  { type: 'string', enum: [...API_GROUPS] },
  'One group of the document (none: every endpoint)',
);

export const API_DOCS_OPERATION = ops('get', '/openapi/v3/api-docs', 'This document, or one group of it', {
  parameters: [GROUP],
});

/** Health, configuration, operations and the documentation endpoints themselves. */
export const OPERATION_ENDPOINTS: readonly Operation[] = [
  ops('get', '/health', 'Liveness', { responses: { '200': { description: 'Up' } } }),
  ops('get', '/health/live', 'Liveness', { responses: { '200': { description: 'Up' } } }),
  ops('get', '/config', 'Server configuration, as the SDK reads it', {
    parameters: [queryParam('verbose', { type: 'boolean' }, 'Also say who asks: userType anonymous or user')],
  }),
  restore('/gms/operations'),
  restore('/api/gms/operations'),
  restore('/operations'),
  ops(
    'get',
    '/actuator/prometheus',
    'Metrics in the Prometheus text format (open, as the ecosystem serves it)',
    {
      responses: { '200': { description: 'Metrics', mediaType: 'text/plain' } },
    },
  ),
  ops('get', '/openapi/operations/throttle/requests', 'The active API write throttles'),
  ops('post', '/openapi/operations/throttle/requests/manual', 'Switch the manual API write throttle', {
    parameters: [queryParam('enabled', { type: 'boolean' }, 'On or off', true)],
  }),
  ops('get', '/openapi/operations/messaging/transport', 'Which event log carries the pipeline'),
  ops('get', '/openapi/operations/messaging/{kind}/consumer/lag', 'Consumer lag', {
    parameters: [pathParam('kind', 'mcp, mcl, mcl-timeseries or usage-events')],
  }),
  ops('post', '/openapi/operations/dead-letters/replay', "Replay a consumer group's dead letters", {
    parameters: [
      queryParam(
        'group',
        { type: 'string' },
        'persistence, indexer, audit, structured-property-cleanup, or a group id',
        true,
      ),
    ],
  }),
  ops(
    'get',
    '/openapi/operations/structuredProperties/cleanup',
    "Progress of hard-deleted structured properties' clean-up: values left, mappings left",
    {
      parameters: [queryParam('urn', { type: 'string' }, 'Only this structured property')],
    },
  ),
  ops('post', '/openapi/operations/elasticSearch/entity/raw', 'The search documents of entities, by urn', {
    body: jsonBody({ type: 'array', items: { type: 'string' } }, true),
  }),
  API_DOCS_OPERATION,
  ops('get', '/openapi/v3/api-docs.yaml', 'This document, as YAML', {
    parameters: [GROUP],
    responses: { '200': { description: 'YAML', mediaType: 'application/yaml' } },
  }),
  ops('get', '/restli/docs', 'The Rest.li endpoints, browsable', { responses: page('An HTML page') }),
  ops('get', '/openapi/swagger-ui/index.html', 'Swagger UI over this document', {
    responses: page('An HTML page'),
  }),
];
