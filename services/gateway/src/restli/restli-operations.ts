import {
  jsonBody,
  pathParam,
  queryParam,
  success,
  type Operation,
  type Parameter,
} from '../api-contract/operation.js';
import { MAX_PAGE_SIZE } from '@catalog/search';

const URN = pathParam('urn', 'The entity urn, percent-encoded');
const ANY_BODY = jsonBody({ type: 'object' });
const ANY_OK = success('The result', { type: 'object' });
const action = (names: readonly string[]): Parameter =>
  queryParam('action', { type: 'string', enum: [...names] }, 'The action', true);
const restli = (
  method: Operation['method'],
  path: string,
  summary: string,
  rest: Partial<Operation> = {},
): Operation => ({
  group: '70-restli',
  method,
  path,
  tag: 'rest.li',
  summary,
  parameters: [],
  responses: ANY_OK,
  ...rest,
});

const DIRECTION = queryParam(
  'direction',
  { type: 'string', enum: ['INCOMING', 'OUTGOING'] },
  'Direction',
  true,
);
const START = queryParam(
  'start',
  { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE * 100, default: 0 },
  'First result',
);

/** The Rest.li-style endpoints (spec 4.14); `/restli/docs` renders them. */
export const RESTLI_OPERATIONS = {
  aspectsAction: restli('post', '/aspects', 'Ingest proposals, or read time-series values', {
    parameters: [action(['ingestProposal', 'ingestProposalBatch', 'getTimeseriesAspectValues'])],
    body: ANY_BODY,
  }),
  getAspect: restli('get', '/aspects/{urn}', 'One version of one aspect', {
    parameters: [
      URN,
      queryParam('aspect', { type: 'string' }, 'Aspect name'),
      queryParam('version', { type: 'integer', default: 0 }, 'Version'),
    ],
  }),
  getEntityV2: restli('get', '/entitiesV2/{urn}', 'Every aspect of an entity', {
    parameters: [URN, queryParam('aspects', { type: 'string' }, 'List(a,b)')],
  }),
  batchGetEntityV2: restli('get', '/entitiesV2', 'Several entities', {
    parameters: [queryParam('ids', { type: 'string' }, 'List(urn,urn)')],
  }),
  getEntity: restli('get', '/entities/{urn}', 'An entity as a legacy snapshot', { parameters: [URN] }),
  entitiesAction: restli('post', '/entities', 'Search, browse and autocomplete', {
    parameters: [action(['search', 'browse', 'autocomplete'])],
    body: ANY_BODY,
  }),
  relationships: restli('get', '/relationships', 'Related entities', {
    parameters: [
      queryParam('urn', { type: 'string' }, 'Entity urn', true),
      DIRECTION,
      queryParam('types', { type: 'string' }, 'A name or List(a,b)', true),
      START,
      queryParam('count', { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE, default: 100 }, 'Results'),
    ],
  }),
} as const satisfies Record<string, Operation>;

/** `/openapi/relationships/v1`, what the SDK's `get_related_entities` pages through. */
export const RELATIONSHIPS_V1_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'get',
  path: '/openapi/relationships/v1',
  tag: 'relationships',
  summary: 'Related entities, as the SDK pages them',
  parameters: [
    queryParam('urn', { type: 'string' }, 'Entity urn', true),
    DIRECTION,
    queryParam(
      'relationshipTypes',
      { type: 'array', items: { type: 'string' }, minItems: 1 },
      'Relationship names, repeated or comma-separated',
      true,
    ),
    START,
    queryParam('count', { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE, default: 200 }, 'Results'),
  ],
  responses: ANY_OK,
};
