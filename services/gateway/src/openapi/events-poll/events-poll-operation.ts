import {
  EVENTS_POLL_DEFAULT_LIMIT,
  EVENTS_POLL_DEFAULT_TIMEOUT_SECONDS,
  EVENTS_POLL_MAX_LIMIT,
  EVENTS_POLL_MAX_TIMEOUT_SECONDS,
} from '../../application/events-poll.js';
import { queryParam, type Operation } from '../../api-contract/operation.js';

/** GET /openapi/v1/events/poll: the ecosystem's events API (its parameters, clamps and 403 rules). */
export const EVENTS_POLL_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'get',
  path: '/openapi/v1/events/poll',
  tag: 'events',
  summary: 'Events of a topic after a position, waiting up to a timeout for the first',
  parameters: [
    queryParam(
      'topic',
      { type: 'string' },
      'PlatformEvent_v1 (GET_PLATFORM_EVENTS), MetadataChangeLog_Versioned_v1 or MetadataChangeLog_Timeseries_v1 (GET_METADATA_CHANGE_LOG_EVENTS)',
      true,
    ),
    queryParam(
      'offsetId',
      { type: 'string' },
      'The offsetId of the previous poll; absent: the end (or lookbackWindowDays back)',
    ),
    queryParam(
      'limit',
      { type: 'integer', minimum: 1, default: EVENTS_POLL_DEFAULT_LIMIT },
      `Maximum events; more than ${EVENTS_POLL_MAX_LIMIT} is taken as ${EVENTS_POLL_MAX_LIMIT}`,
    ),
    queryParam(
      'pollTimeoutSeconds',
      { type: 'integer', minimum: 0, default: EVENTS_POLL_DEFAULT_TIMEOUT_SECONDS },
      `How long to wait for a first event; more than ${EVENTS_POLL_MAX_TIMEOUT_SECONDS} is taken as ${EVENTS_POLL_MAX_TIMEOUT_SECONDS}`,
    ),
    queryParam(
      'lookbackWindowDays',
      { type: 'integer', minimum: 0 },
      'Without offsetId: start this many days back instead of at the end',
    ),
  ],
  responses: {
    '200': {
      description: 'The events and the position after them',
      schema: {
        type: 'object',
        properties: {
          offsetId: { type: 'string', description: 'Pass it as offsetId to continue after these events' },
          count: { type: 'integer', format: 'int64' },
          events: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                contentType: { type: 'string' },
                value: { type: 'string', description: 'The record in Avro JSON encoding' },
              },
              required: ['contentType', 'value'],
            },
          },
        },
        required: ['offsetId', 'count', 'events'],
      },
    },
    '403': { description: 'The topic cannot be polled, or the caller lacks its privilege (empty body)' },
  },
};
