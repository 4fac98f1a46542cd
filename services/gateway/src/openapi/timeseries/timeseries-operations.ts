import { pathParam, queryParam, success, type Operation } from '../../api-contract/operation.js';

/** Epoch ms bounds of a time-series scan. */
const millis = (name: string, description: string) =>
  queryParam(name, { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, description);

export const TIMESERIES_SCROLL_OPERATION: Operation = {
  group: '50-openapi-v2',
  method: 'get',
  path: '/openapi/v2/timeseries/{entityName}/{aspectName}',
  tag: 'timeseries',
  summary: "Every entity's values of a time-series aspect, newest first, in scrolled pages",
  parameters: [
    pathParam('entityName', 'Entity type, e.g. dataset'),
    pathParam('aspectName', 'A time-series aspect of that entity, e.g. datasetProfile'),
    queryParam(
      'count',
      { type: 'integer', minimum: 0, default: 10 },
      'Page size; above 10,000 it is clamped',
    ),
    queryParam('scrollId', { type: 'string' }, 'The scrollId of the previous page'),
    millis('startTimeMillis', 'Earliest timestamp (inclusive)'),
    millis('endTimeMillis', 'Latest timestamp (inclusive)'),
    queryParam('systemMetadata', { type: 'boolean', default: false }, 'Include system metadata'),
  ],
  responses: success('A page of values', { type: 'object' }),
};
