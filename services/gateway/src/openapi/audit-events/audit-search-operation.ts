import { AUDIT_EVENT_TYPES, AUDIT_MAX_PAGE_SIZE } from '../../application/audit-search.js';
import { jsonBody, queryParam, type JsonSchema, type Operation } from '../../api-contract/operation.js';

/** A millisecond timestamp whose negative (or, for endTime, zero) value means "the default". */
const millis = (name: string, description: string) =>
  queryParam(name, { type: 'integer', default: -1, maximum: Number.MAX_SAFE_INTEGER }, description);

/** A filter list of the body; null, absent and empty all mean no filter on that field. */
const filterList = (description: string, items: JsonSchema = { type: 'string' }): JsonSchema => ({
  type: ['array', 'null'],
  items,
  description,
});

const USAGE_EVENT: JsonSchema = {
  type: 'object',
  properties: {
    eventType: { type: 'string', enum: [...AUDIT_EVENT_TYPES] },
    timestamp: { type: 'integer', format: 'int64', description: 'ms' },
    actorUrn: { type: 'string' },
    sourceIP: { type: 'string' },
    eventSource: { type: 'string', enum: ['RESTLI', 'OPENAPI', 'GRAPHQL', 'SSO_SCIM'] },
    userAgent: { type: 'string' },
    telemetryTraceId: { type: 'string' },
    entityUrn: { type: 'string', description: 'Entity and change events' },
    entityType: { type: 'string', description: 'Entity and change events' },
    aspectName: { type: 'string', description: 'Entity and change events' },
    loginSource: {
      type: 'string',
      enum: [
        'PASSWORD_RESET',
        'PASSWORD_LOGIN',
        'FALLBACK_LOGIN',
        'SIGN_UP_LINK_LOGIN',
        'GUEST_LOGIN',
        'SSO_LOGIN',
        'OIDC_IMPLICIT_LOGIN',
      ],
      description: 'Login events',
    },
    loginDenialReason: { type: 'string', description: 'Failed login events' },
    rawUsageEvent: { type: 'object', description: 'The recorded event, when includeRaw is true' },
  },
  required: ['eventType', 'timestamp', 'actorUrn'],
};

/** POST /openapi/v1/events/audit/search (spec 4.12): the route validates its query against this. */
export const AUDIT_SEARCH_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'post',
  path: '/openapi/v1/events/audit/search',
  tag: 'audit-events',
  summary: 'Audit events of a time window, newest first, filtered and scrolled',
  parameters: [
    millis('startTime', 'Earliest timestamp (ms, inclusive); when negative or absent, one day before now'),
    millis('endTime', 'Latest timestamp (ms, exclusive); when zero, negative or absent, now'),
    queryParam(
      'size',
      { type: 'integer', minimum: 0, maximum: AUDIT_MAX_PAGE_SIZE, default: 10 },
      'Maximum events per response',
    ),
    queryParam('scrollId', { type: 'string' }, 'The nextScrollId of the previous response'),
    queryParam('includeRaw', { type: 'boolean', default: true }, 'Include each rawUsageEvent'),
  ],
  body: jsonBody(
    {
      type: ['object', 'null'],
      description:
        'Filters: lists combine with AND, the values inside one list with OR; an empty or absent list does not filter',
      properties: {
        eventTypes: filterList('Event types (spec section 6)', {
          type: 'string',
          enum: [...AUDIT_EVENT_TYPES],
        }),
        entityTypes: filterList('Entity types, e.g. dataset'),
        aspectTypes: filterList('Aspect names, e.g. ownership'),
        actorUrns: filterList('Acting users, e.g. urn:li:corpuser:jdoe'),
      },
    },
    false,
  ),
  responses: {
    '200': {
      description: 'A page of events',
      schema: {
        type: 'object',
        properties: {
          nextScrollId: {
            type: 'string',
            description: 'Present when more events remain: pass it as scrollId for the next page',
          },
          count: { type: 'integer', format: 'int32', description: 'Events in this response' },
          total: { type: 'integer', format: 'int32', description: 'Matching events, counted up to 10,000' },
          usageEvents: { type: 'array', items: USAGE_EVENT },
        },
        required: ['count', 'total', 'usageEvents'],
      },
    },
    '403': {
      description:
        'The caller holds none of VIEW_ANALYTICS, GET_ANALYTICS_PRIVILEGE, MANAGE_SYSTEM_OPERATIONS',
      schema: { $ref: '#/components/schemas/Error' },
    },
  },
};
