import {
  jsonBody,
  pathParam,
  queryParam,
  type JsonSchema,
  type Operation,
} from '../../api-contract/operation.js';

const WRITE_STATUSES = [
  'ERROR',
  'PENDING',
  'ACTIVE_STATE',
  'HISTORIC_STATE',
  'NO_OP',
  'UNKNOWN',
  'TRACE_NOT_IMPLEMENTED',
];

const STORAGE_STATUS: JsonSchema = {
  type: 'object',
  properties: {
    writeStatus: { type: 'string', enum: WRITE_STATUSES },
    writeMessage: { type: 'string' },
    writeExceptions: {
      type: 'array',
      items: { type: 'object', properties: { message: { type: 'string' } } },
    },
  },
  required: ['writeStatus'],
};

/** POST /openapi/v1/trace/write/{traceId}: the ecosystem's write trace of asynchronous writes. */
export const TRACE_WRITE_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'post',
  path: '/openapi/v1/trace/write/{traceId}',
  tag: 'Tracing',
  summary:
    'What became of the asynchronous writes of one trace id (the traceparent of their response): per urn and aspect, in the primary store and in search',
  parameters: [
    pathParam('traceId', 'The trace id (32 hex digits) or the whole traceparent'),
    queryParam(
      'onlyIncludeErrors',
      { type: 'boolean', default: true },
      'Answer only the aspects that failed',
    ),
    queryParam(
      'detailed',
      { type: 'boolean', default: false },
      "Give a refused write's reason as writeExceptions (else as writeMessage)",
    ),
    queryParam(
      'skipCache',
      { type: 'boolean', default: false },
      'Accepted for compatibility: consumer positions are always read fresh',
    ),
  ],
  body: jsonBody({
    type: 'object',
    description: 'The aspects to trace, by urn',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    minProperties: 1,
  }),
  responses: {
    '200': {
      description: 'Per urn, per aspect: success, primaryStorage and searchStorage',
      schema: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              success: { type: 'boolean' },
              primaryStorage: STORAGE_STATUS,
              searchStorage: STORAGE_STATUS,
            },
            required: ['success', 'primaryStorage', 'searchStorage'],
          },
        },
      },
    },
    '403': { description: 'The caller may not read at least one of the urns' },
  },
};
