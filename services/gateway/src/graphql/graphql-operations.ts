import { jsonBody, success, type Operation } from '../api-contract/operation.js';

const QUERY_BODY = jsonBody({
  type: 'object',
  properties: { query: { type: 'string' }, variables: { type: 'object' }, operationName: { type: 'string' } },
  required: ['query'],
});
const graphql = (path: string, summary: string): Operation => ({
  group: '80-graphql',
  method: 'post',
  path,
  tag: 'graphql',
  summary,
  parameters: [],
  body: QUERY_BODY,
  responses: success('The GraphQL result', { type: 'object' }),
});

/** GraphQL over HTTP; the schema itself is GraphQL's own document (introspection, GraphiQL). */
export const GRAPHQL_OPERATIONS: readonly Operation[] = [
  graphql('/api/graphql', 'GraphQL (POST only)'),
  graphql('/api/v2/graphql', 'GraphQL under the frontend path (POST only)'),
  {
    group: '80-graphql',
    method: 'get',
    path: '/api/graphiql',
    tag: 'graphql',
    summary: 'The GraphiQL explorer',
    parameters: [],
    responses: { '200': { description: 'An HTML page', mediaType: 'text/html' } },
  },
];
