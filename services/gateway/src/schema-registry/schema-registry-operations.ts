import { jsonBody, pathParam, success, type Operation } from '../api-contract/operation.js';

const SR = '/schema-registry/api';
const SUBJECT = pathParam('subject', 'Subject');
const VERSION = pathParam('version', 'Version, or latest');
const ID = pathParam('id', 'Schema id');
const sr = (
  method: Operation['method'],
  path: string,
  summary: string,
  rest: Partial<Operation> = {},
): Operation => ({
  group: '90-schema-registry',
  method,
  path: `${SR}${path}`,
  tag: 'schema registry',
  summary,
  parameters: [],
  responses: success('The result', { type: 'object' }),
  ...rest,
});
const ANY = jsonBody({ type: 'object' });

/** The Confluent-compatible schema registry the Kafka emitters read their Avro schemas from. */
export const SCHEMA_REGISTRY_OPERATIONS: readonly Operation[] = [
  sr('get', '/subjects', 'Subjects'),
  sr('get', '/schemas/types', 'Schema types'),
  sr('get', '/schemas/ids/{id}', 'A schema by id', { parameters: [ID] }),
  sr('get', '/schemas/ids/{id}/versions', 'Subject versions of a schema', { parameters: [ID] }),
  sr('get', '/subjects/{subject}/versions', 'Versions of a subject', { parameters: [SUBJECT] }),
  sr('post', '/subjects/{subject}/versions', 'Register a schema', { parameters: [SUBJECT], body: ANY }),
  sr('get', '/subjects/{subject}/versions/{version}', 'A subject version', {
    parameters: [SUBJECT, VERSION],
  }),
  sr('get', '/subjects/{subject}/versions/{version}/schema', 'The schema of a subject version', {
    parameters: [SUBJECT, VERSION],
  }),
  sr('post', '/subjects/{subject}', 'Look up a schema under a subject', { parameters: [SUBJECT], body: ANY }),
  sr('post', '/compatibility/subjects/{subject}/versions/{version}', 'Check compatibility', {
    parameters: [SUBJECT, VERSION],
    body: ANY,
  }),
  sr('post', '/compatibility/subjects/{subject}/versions', 'Check compatibility', {
    parameters: [SUBJECT],
    body: ANY,
  }),
  sr('get', '/config', 'Compatibility level'),
  sr('put', '/config', 'Set the compatibility level', { body: ANY }),
  sr('get', '/config/{subject}', 'Compatibility level of a subject', { parameters: [SUBJECT] }),
  sr('put', '/config/{subject}', 'Set the compatibility level of a subject', {
    parameters: [SUBJECT],
    body: ANY,
  }),
];
