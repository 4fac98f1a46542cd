import {
  arrayOf,
  aspect,
  CUSTOM_PROPERTIES,
  enumOf,
  EXTERNAL_URL,
  mapOf,
  opt,
  record,
  req,
  TIMESERIES_BASE,
  TIMESERIES_SEARCHABLE,
  UNKNOWN_AUDIT_STAMP,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

/** Aspects of the `com.linkedin.dataset` namespace. */
export const DATASET_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'datasetProperties',
    schema: record('com.linkedin.dataset.DatasetProperties', [
      CUSTOM_PROPERTIES,
      EXTERNAL_URL,
      opt('name', 'string'),
      opt('qualifiedName', 'string'),
      opt('description', 'string'),
      opt('uri', 'string'),
      opt('created', 'com.linkedin.common.TimeStamp'),
      opt('lastModified', 'com.linkedin.common.TimeStamp'),
      req('tags', arrayOf('string'), []),
    ]),
    searchable: [
      { fieldName: 'customProperties', path: 'customProperties', type: 'TEXT', queryByDefault: true },
      { fieldName: 'externalUrl', path: 'externalUrl', type: 'KEYWORD', queryByDefault: false },
      {
        fieldName: 'name',
        path: 'name',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      {
        fieldName: 'qualifiedName',
        path: 'qualifiedName',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
      },
      { fieldName: 'description', path: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
      { fieldName: 'createdAt', path: 'created/time', type: 'DATETIME', queryByDefault: false },
      { fieldName: 'lastModifiedAt', path: 'lastModified/time', type: 'DATETIME', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'editableDatasetProperties',
    schema: record('com.linkedin.dataset.EditableDatasetProperties', [
      req('created', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      req('lastModified', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      opt('deleted', 'com.linkedin.common.AuditStamp'),
      opt('description', 'string'),
      opt('name', 'string'),
    ]),
    searchable: [
      { fieldName: 'editedDescription', path: 'description', type: 'TEXT' },
      { fieldName: 'editedName', path: 'name', type: 'WORD_GRAM', boost: 10 },
    ],
  }),
  aspect({
    name: 'upstreamLineage',
    schema: record('com.linkedin.dataset.UpstreamLineage', [
      req(
        'upstreams',
        arrayOf(
          record('com.linkedin.dataset.Upstream', [
            req('auditStamp', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
            opt('created', 'com.linkedin.common.AuditStamp'),
            req('dataset', URN),
            req('type', enumOf('com.linkedin.dataset.DatasetLineageType', ['COPY', 'TRANSFORMED', 'VIEW'])),
            opt('properties', mapOf('string')),
            opt('query', URN),
          ]),
        ),
      ),
      opt('fineGrainedLineages', arrayOf('com.linkedin.dataset.FineGrainedLineage')),
    ]),
    searchable: [
      {
        fieldName: 'upstreams',
        path: 'upstreams/*/dataset',
        type: 'URN',
        queryByDefault: false,
        hasValuesFieldName: 'hasUpstreams',
      },
    ],
    relationships: [{ name: 'DownstreamOf', path: 'upstreams/*/dataset', entityTypes: ['dataset'] }],
  }),
  aspect({
    name: 'datasetProfile',
    kind: 'timeseries',
    schema: record('com.linkedin.dataset.DatasetProfile', [
      ...TIMESERIES_BASE,
      opt('rowCount', 'long'),
      opt('columnCount', 'long'),
      opt(
        'fieldProfiles',
        arrayOf(
          record('com.linkedin.dataset.DatasetFieldProfile', [
            req('fieldPath', 'string'),
            opt('uniqueCount', 'long'),
            opt('uniqueProportion', 'float'),
            opt('nullCount', 'long'),
            opt('nullProportion', 'float'),
            opt('min', 'string'),
            opt('max', 'string'),
            opt('mean', 'string'),
            opt('median', 'string'),
            opt('stdev', 'string'),
            opt(
              'quantiles',
              arrayOf(
                record('com.linkedin.dataset.Quantile', [req('quantile', 'string'), req('value', 'string')]),
              ),
            ),
            opt(
              'distinctValueFrequencies',
              arrayOf(
                record('com.linkedin.dataset.ValueFrequency', [
                  req('value', 'string'),
                  req('frequency', 'long'),
                ]),
              ),
            ),
            opt(
              'histogram',
              record('com.linkedin.dataset.Histogram', [
                req('boundaries', arrayOf('string')),
                req('heights', arrayOf('float')),
              ]),
            ),
            opt('sampleValues', arrayOf('string')),
          ]),
        ),
      ),
      opt('sizeInBytes', 'long'),
    ]),
    searchable: [
      ...TIMESERIES_SEARCHABLE,
      { fieldName: 'rowCount', path: 'rowCount', type: 'COUNT', queryByDefault: false },
      { fieldName: 'columnCount', path: 'columnCount', type: 'COUNT', queryByDefault: false },
      { fieldName: 'sizeInBytes', path: 'sizeInBytes', type: 'COUNT', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'datasetUsageStatistics',
    kind: 'timeseries',
    schema: record('com.linkedin.dataset.DatasetUsageStatistics', [
      ...TIMESERIES_BASE,
      opt('uniqueUserCount', 'int'),
      opt('totalSqlQueries', 'int'),
      opt('topSqlQueries', arrayOf('string')),
      opt(
        'userCounts',
        arrayOf(
          record('com.linkedin.dataset.DatasetUserUsageCounts', [
            req('user', URN),
            req('count', 'int'),
            opt('userEmail', 'string'),
          ]),
        ),
      ),
      opt(
        'fieldCounts',
        arrayOf(
          record('com.linkedin.dataset.DatasetFieldUsageCounts', [
            req('fieldPath', 'string'),
            req('count', 'int'),
          ]),
        ),
      ),
    ]),
    searchable: [
      ...TIMESERIES_SEARCHABLE,
      { fieldName: 'uniqueUserCount', path: 'uniqueUserCount', type: 'COUNT', queryByDefault: false },
      { fieldName: 'totalSqlQueries', path: 'totalSqlQueries', type: 'COUNT', queryByDefault: false },
      { fieldName: 'topSqlQueries', path: 'topSqlQueries', type: 'KEYWORD', queryByDefault: false },
    ],
  }),
];
