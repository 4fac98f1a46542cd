import {
  arrayOf,
  aspect,
  CUSTOM_PROPERTIES,
  enumOf,
  EXTERNAL_URL,
  opt,
  record,
  req,
  TIMESERIES_BASE,
  TIMESERIES_SEARCHABLE,
  UNKNOWN_AUDIT_STAMP,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

/** Aspects of the `com.linkedin.chart` namespace. */
export const CHART_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'chartInfo',
    schema: record('com.linkedin.chart.ChartInfo', [
      CUSTOM_PROPERTIES,
      EXTERNAL_URL,
      req('title', 'string'),
      req('description', 'string'),
      req('lastModified', 'com.linkedin.common.ChangeAuditStamps'),
      opt('chartUrl', 'string'),
      // ChartDataSourceType is a union with one member (a dataset URN), so the wire form is
      // `{"string": "urn:li:dataset:..."}`: the union stays wrapped even with a single branch.
      opt('inputs', arrayOf([URN])),
      opt('inputEdges', arrayOf('com.linkedin.common.Edge')),
      opt(
        'type',
        enumOf('com.linkedin.chart.ChartType', [
          'BAR',
          'PIE',
          'SCATTER',
          'TABLE',
          'TEXT',
          'LINE',
          'AREA',
          'HISTOGRAM',
          'BOX_PLOT',
          'WORD_CLOUD',
          'COHORT',
        ]),
      ),
      opt('access', 'com.linkedin.common.AccessLevel'),
      opt('lastRefreshed', 'long'),
    ]),
    searchable: [
      { fieldName: 'customProperties', path: 'customProperties', type: 'TEXT', queryByDefault: true },
      {
        fieldName: 'title',
        path: 'title',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'description', path: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
      {
        fieldName: 'inputs',
        path: 'inputs/*/string',
        type: 'URN',
        numValuesFieldName: 'numInputDatasets',
        queryByDefault: false,
      },
      { fieldName: 'type', path: 'type', type: 'KEYWORD', addToFilters: true, filterName: 'Type' },
      {
        fieldName: 'access',
        path: 'access',
        type: 'KEYWORD',
        addToFilters: true,
        filterName: 'Access Level',
      },
      {
        fieldName: 'lastModifiedAt',
        path: 'lastModified/lastModified/time',
        type: 'DATETIME',
        queryByDefault: false,
      },
    ],
    relationships: [
      { name: 'Consumes', path: 'inputs/*/string', entityTypes: ['dataset'] },
      { name: 'Consumes', path: 'inputEdges/*/destinationUrn', entityTypes: ['dataset', 'chart'] },
    ],
  }),
  aspect({
    name: 'chartQuery',
    schema: record('com.linkedin.chart.ChartQuery', [
      req('rawQuery', 'string'),
      req('type', enumOf('com.linkedin.chart.ChartQueryType', ['LOOKML', 'SQL'])),
    ]),
    searchable: [
      { fieldName: 'queryType', path: 'type', type: 'KEYWORD', addToFilters: true, filterName: 'Query Type' },
    ],
  }),
  aspect({
    name: 'editableChartProperties',
    schema: record('com.linkedin.chart.EditableChartProperties', [
      req('created', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      req('lastModified', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      opt('deleted', 'com.linkedin.common.AuditStamp'),
      opt('description', 'string'),
    ]),
    searchable: [{ fieldName: 'editedDescription', path: 'description', type: 'TEXT' }],
  }),
  aspect({
    name: 'chartUsageStatistics',
    kind: 'timeseries',
    schema: record('com.linkedin.chart.ChartUsageStatistics', [
      ...TIMESERIES_BASE,
      opt('viewsCount', 'int'),
      opt('uniqueUserCount', 'int'),
      opt(
        'userCounts',
        arrayOf(
          record('com.linkedin.chart.ChartUserUsageCounts', [req('user', URN), opt('viewsCount', 'int')]),
        ),
      ),
    ]),
    searchable: [
      ...TIMESERIES_SEARCHABLE,
      { fieldName: 'viewsCount', path: 'viewsCount', type: 'COUNT', queryByDefault: false },
      { fieldName: 'uniqueUserCount', path: 'uniqueUserCount', type: 'COUNT', queryByDefault: false },
    ],
  }),
];
