import {
  jsonBody,
  queryParam,
  success,
  type JsonSchema,
  type Operation,
} from '../../api-contract/operation.js';

const STRINGS: JsonSchema = { type: 'array', items: { type: 'string' } };

/** The v3 filter: `{and: [{criteria: [{field, values, condition, negated}]}]}`, the outer list ORed. */
const FILTER: JsonSchema = {
  type: 'object',
  properties: {
    and: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          criteria: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field'],
              properties: {
                field: { type: 'string' },
                value: { type: 'string' },
                values: STRINGS,
                condition: { type: 'string' },
                negated: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
  },
};

/** Query parameters both scrolls take (the ecosystem's; slices and keep-alive are accepted and unused). */
const SCROLL_PARAMETERS = [
  queryParam('relationshipTypes', STRINGS, 'Relationship names, repeated or comma-separated (none: all)'),
  queryParam('count', { type: 'integer', default: 10 }, 'Edges per page, 1 to 10,000'),
  queryParam('scrollId', { type: 'string' }, 'The scrollId of the previous page'),
  queryParam(
    'includeSoftDelete',
    { type: 'boolean', default: false },
    'Accepted; edges are listed as indexed',
  ),
  queryParam('sliceId', { type: 'integer', minimum: 0 }, 'Accepted, not used'),
  queryParam('sliceMax', { type: 'integer', minimum: 1 }, 'Accepted, not used'),
  queryParam('pitKeepAlive', { type: 'string' }, 'Accepted, not used (scrollIds do not expire)'),
];

const NODE: JsonSchema = {
  type: 'object',
  required: ['urn', 'entityType'],
  properties: { urn: { type: 'string' }, entityType: { type: 'string' } },
};

export const RELATIONSHIP_SCROLL_OPERATION: Operation = {
  group: '10-openapi-v3',
  method: 'post',
  path: '/openapi/v3/relationship/scroll',
  tag: 'Generic Relationships',
  summary: 'Scroll relationships with filters on source/destination types, urns and edges',
  parameters: [
    ...SCROLL_PARAMETERS,
    queryParam('sourceTypes', STRINGS, 'Entity types of the source'),
    queryParam('destinationTypes', STRINGS, 'Entity types of the destination'),
    queryParam(
      'direction',
      { type: 'string', default: 'OUTGOING' },
      'OUTGOING (filters as given), INCOMING (source and destination filters swapped) or UNDIRECTED',
    ),
  ],
  body: jsonBody({
    type: 'object',
    properties: { sourceFilter: FILTER, destinationFilter: FILTER, edgeFilter: FILTER },
  }),
  responses: success('A page of relationships', {
    type: 'object',
    properties: {
      scrollId: { type: 'string' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: { relationshipType: { type: 'string' }, source: NODE, destination: NODE },
        },
      },
    },
  }),
};

export const LINEAGE_SCROLL_OPERATION: Operation = {
  group: '10-openapi-v3',
  method: 'post',
  path: '/openapi/v3/lineage/scroll',
  tag: 'Generic Lineage',
  summary: 'Scroll lineage edges touching a set of urns, each with its upstream and downstream end',
  parameters: [
    ...SCROLL_PARAMETERS,
    queryParam('direction', { type: 'string' }, 'UPSTREAM or DOWNSTREAM of the urns (none: both)'),
  ],
  body: jsonBody({ type: 'object', properties: { urns: STRINGS } }),
  responses: success('A page of lineage edges', {
    type: 'object',
    properties: {
      scrollId: { type: 'string' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            relationshipType: { type: 'string' },
            source: NODE,
            destination: NODE,
            upstream: { type: 'string' },
            downstream: { type: 'string' },
          },
        },
      },
    },
  }),
};
