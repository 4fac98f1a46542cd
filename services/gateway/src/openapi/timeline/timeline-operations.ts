import { pathParam, queryParam, success, type Operation } from '../../api-contract/operation.js';

const parameters = [
  pathParam('urn', 'The entity urn, URL-encoded'),
  queryParam(
    'categories',
    { type: 'array', items: { type: 'string' }, minItems: 1 },
    'Change categories (comma-separated or repeated), any case: TAG, OWNERSHIP (or OWNER), GLOSSARY_TERM, TECHNICAL_SCHEMA, DOCUMENTATION, DOMAIN, STRUCTURED_PROPERTY, APPLICATION, ASSET_MEMBERSHIP, VERSIONING, …',
    true,
  ),
  queryParam(
    'startTime',
    { type: 'integer', minimum: -1, maximum: Number.MAX_SAFE_INTEGER, default: -1 },
    'Earliest write time (epoch ms); -1: a week before the end',
  ),
  queryParam(
    'endTime',
    { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
    'Latest write time (epoch ms); 0: now',
  ),
  queryParam('raw', { type: 'boolean', default: false }, "Include each transaction's JSON patch (rawDiff)"),
  queryParam(
    'includeVersionSet',
    { type: 'boolean', default: false },
    'Merge the timelines of every version of the entity’s version set (no time range then)',
  ),
];

const ANSWER = success('The change transactions, oldest first', {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      timestamp: { type: 'integer' },
      actor: { type: 'string' },
      semVer: { type: 'string' },
      semVerChange: { type: 'string', enum: ['NONE', 'PATCH', 'MINOR', 'MAJOR', 'EXCEPTIONAL'] },
      changeEvents: { type: 'array', items: { type: 'object' } },
      versionStamp: { type: 'string' },
      rawDiff: { type: 'array', items: { type: 'object' } },
    },
  },
});

/** GET /openapi/v2/timeline/v1/{urn}: an entity's change history. */
export const TIMELINE_V2_OPERATION: Operation = {
  group: '50-openapi-v2',
  method: 'get',
  path: '/openapi/v2/timeline/v1/{urn}',
  tag: 'Timeline',
  summary: "An entity's change history: semantic changes per write, with computed semantic versions",
  parameters,
  responses: ANSWER,
};

/** The deprecated copy the ecosystem still serves at /openapi/timeline/v1/{urn}. */
export const TIMELINE_V1_OPERATION: Operation = {
  ...TIMELINE_V2_OPERATION,
  group: '60-openapi-v1',
  path: '/openapi/timeline/v1/{urn}',
  summary: "An entity's change history (deprecated: use /openapi/v2/timeline/v1/{urn})",
};
