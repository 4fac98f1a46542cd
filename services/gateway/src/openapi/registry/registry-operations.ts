import { pathParam, queryParam, success, type Operation } from '../../api-contract/operation.js';

const BASE = '/openapi/v1/registry/models';

const paging = (count: number) => [
  queryParam('start', { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 }, 'Start index'),
  queryParam('count', { type: 'integer', minimum: 0, maximum: 10_000, default: count }, 'How many to return'),
];

const PAGE = {
  type: 'object',
  properties: {
    elements: { type: 'array', items: { type: 'object' } },
    start: { type: 'integer' },
    count: { type: 'integer' },
    total: { type: 'integer' },
  },
};

const common = {
  group: '60-openapi-v1',
  method: 'get',
  tag: 'Entity Registry API',
} as const;

const FORBIDDEN = { '403': { description: 'The caller lacks MANAGE_SYSTEM_OPERATIONS' } };
const NOT_FOUND = { '404': { description: 'The registry has no such model' } };

export const REGISTRY_OPERATIONS = {
  entitySpecs: {
    ...common,
    path: `${BASE}/entity/specifications`,
    summary: 'Every entity specification, sorted by name, paged',
    parameters: paging(5),
    responses: { ...success('A page of entity specifications', PAGE), ...FORBIDDEN },
  },
  entitySpec: {
    ...common,
    path: `${BASE}/entity/specifications/{entityName}`,
    summary: "One entity's name and aspect specifications",
    parameters: [pathParam('entityName', 'The entity name, e.g. dataset')],
    responses: { ...success('The entity specification', { type: 'object' }), ...FORBIDDEN, ...NOT_FOUND },
  },
  entityAspectSpecs: {
    ...common,
    path: `${BASE}/entity/specifications/{entityName}/aspects`,
    summary: "One entity's aspect specifications by aspect name",
    parameters: [pathParam('entityName', 'The entity name, e.g. dataset')],
    responses: {
      ...success('Aspect specifications by name', { type: 'object' }),
      ...FORBIDDEN,
      ...NOT_FOUND,
    },
  },
  aspectSpecs: {
    ...common,
    path: `${BASE}/aspect/specifications`,
    summary: 'Every aspect specification, sorted by name, paged',
    parameters: paging(20),
    responses: { ...success('A page of aspect specifications', PAGE), ...FORBIDDEN },
  },
  aspectSpec: {
    ...common,
    path: `${BASE}/aspect/specifications/{aspectName}`,
    summary: "One aspect's specification",
    parameters: [pathParam('aspectName', 'The aspect name, e.g. datasetProperties')],
    responses: { ...success('The aspect specification', { type: 'object' }), ...FORBIDDEN, ...NOT_FOUND },
  },
  eventSpecs: {
    ...common,
    path: `${BASE}/event/specifications`,
    summary: 'Every event specification, sorted by name, paged (the registry declares none)',
    parameters: paging(20),
    responses: { ...success('A page of event specifications', PAGE), ...FORBIDDEN },
  },
} satisfies Record<string, Operation>;
