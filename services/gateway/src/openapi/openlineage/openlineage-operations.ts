import {
  jsonBody,
  type JsonSchema,
  type Operation,
  type ResponseSpec,
} from '../../api-contract/operation.js';

/** The receiver's error body (the ecosystem's OpenLineageErrorResponse). */
const OPENLINEAGE_ERROR: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'object' },
  },
  required: ['code', 'message', 'details'],
};

const error = (description: string): ResponseSpec => ({ description, schema: OPENLINEAGE_ERROR });

/** POST /openapi/openlineage/api/v1/lineage: OpenLineage events of lineage producers. */
export const OPENLINEAGE_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'post',
  path: '/openapi/openlineage/api/v1/lineage',
  tag: 'OpenLineage',
  summary:
    'Receives an OpenLineage 2-0-2 RunEvent, JobEvent or DatasetEvent and writes the data flow, job, run, datasets and lineage it reports',
  parameters: [],
  body: jsonBody({
    type: 'object',
    description:
      'An OpenLineage event: `run` and `job` make a RunEvent, a `dataset` a DatasetEvent, otherwise a JobEvent',
  }),
  responses: {
    '202': { description: 'The event is accepted; its writes are on the log' },
    '400': error(
      'INVALID_EVENT: the event is not valid JSON or breaks the specification; details.errors lists why',
    ),
    '401': error('AUTHENTICATION_REQUIRED: no valid credential'),
    '403': error('AUTHORIZATION_DENIED: the caller may not write what the event reports'),
    '415': error('UNSUPPORTED_MEDIA_TYPE: the body is not application/json'),
    '500': error('INGESTION_FAILED: an internal failure; details.exception names its class'),
    '503': error('INGESTION_FAILED: a dependency is unavailable; the message names it'),
  },
};
