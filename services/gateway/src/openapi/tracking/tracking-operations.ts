import { jsonBody, type Operation } from '../../api-contract/operation.js';

/** POST /openapi/v1/tracking/track: the web app's usage events. */
export const TRACKING_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'post',
  path: '/openapi/v1/tracking/track',
  tag: 'Tracking',
  summary: 'Records a usage event of the web app (published on the usage-event topic)',
  parameters: [],
  body: jsonBody({
    type: 'object',
    description: 'The event: a type, and any fields of it (actorUrn, entityUrn, timestamp, …)',
    properties: {
      type: { type: 'string', minLength: 1 },
      actorUrn: { type: 'string' },
      timestamp: { type: ['number', 'string'] },
    },
    required: ['type'],
  }),
  responses: { '200': { description: 'The event was recorded' } },
};
