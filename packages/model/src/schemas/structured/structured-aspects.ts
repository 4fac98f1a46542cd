import {
  arrayOf,
  aspect,
  enumOf,
  mapOf,
  opt,
  record,
  req,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

/** Aspects of the `com.linkedin.structured` namespace: definitions, settings and assignments. */
export const STRUCTURED_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'propertyDefinition',
    schema: record('com.linkedin.structured.StructuredPropertyDefinition', [
      req('qualifiedName', 'string'),
      opt('displayName', 'string'),
      req('valueType', URN),
      opt('typeQualifier', mapOf(arrayOf('string'))),
      opt('allowedValues', arrayOf('com.linkedin.structured.PropertyValue')),
      req(
        'cardinality',
        enumOf('com.linkedin.structured.PropertyCardinality', ['SINGLE', 'MULTIPLE']),
        'SINGLE',
      ),
      req('entityTypes', arrayOf(URN)),
      opt('description', 'string'),
      opt(
        'searchConfiguration',
        record('com.linkedin.datahub.DataHubSearchConfig', [
          opt('fieldName', 'string'),
          opt(
            'fieldType',
            enumOf('com.linkedin.datahub.SearchFieldType', [
              'KEYWORD',
              'TEXT',
              'TEXT_PARTIAL',
              'BROWSE_PATH',
              'URN',
              'URN_PARTIAL',
              'BOOLEAN',
              'COUNT',
              'DATETIME',
              'OBJECT',
              'BROWSE_PATH_V2',
              'WORD_GRAM',
            ]),
          ),
          req('queryByDefault', 'boolean', false),
          req('enableAutocomplete', 'boolean', false),
          req('addToFilters', 'boolean', false),
          req('addHasValuesToFilters', 'boolean', true),
          opt('filterNameOverride', 'string'),
          opt('hasValuesFilterNameOverride', 'string'),
          req('boostScore', 'double', 1.0),
          opt('hasValuesFieldName', 'string'),
          opt('numValuesFieldName', 'string'),
          opt('weightsPerFieldValue', mapOf('double')),
          opt('fieldNameAliases', arrayOf('string')),
        ]),
      ),
      req('immutable', 'boolean', false),
      opt('version', 'string'),
      opt('created', 'com.linkedin.common.AuditStamp'),
      opt('lastModified', 'com.linkedin.common.AuditStamp'),
    ]),
    searchable: [
      { fieldName: 'qualifiedName', path: 'qualifiedName', type: 'KEYWORD' },
      {
        fieldName: 'displayName',
        path: 'displayName',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'valueType', path: 'valueType', type: 'URN', queryByDefault: false },
      { fieldName: 'cardinality', path: 'cardinality', type: 'KEYWORD', queryByDefault: false },
      { fieldName: 'entityTypes', path: 'entityTypes', type: 'URN', queryByDefault: false },
      { fieldName: 'description', path: 'description', type: 'TEXT' },
      { fieldName: 'immutable', path: 'immutable', type: 'BOOLEAN', queryByDefault: false },
      { fieldName: 'createdTime', path: 'created/time', type: 'DATETIME', queryByDefault: false },
      { fieldName: 'lastModified', path: 'lastModified/time', type: 'DATETIME', queryByDefault: false },
    ],
    relationships: [
      { name: 'StructuredPropertyOf', path: 'entityTypes', entityTypes: ['entityType'] },
      { name: 'PropertyValueType', path: 'valueType', entityTypes: ['dataType'] },
    ],
  }),
  aspect({
    name: 'structuredPropertySettings',
    schema: record('com.linkedin.structured.StructuredPropertySettings', [
      req('isHidden', 'boolean', false),
      req('showInSearchFilters', 'boolean', false),
      req('showInAssetSummary', 'boolean', false),
      req('hideInAssetSummaryWhenEmpty', 'boolean', false),
      req('showAsAssetBadge', 'boolean', false),
      req('showInColumnsTable', 'boolean', false),
      opt('lastModified', 'com.linkedin.common.AuditStamp'),
    ]),
    searchable: [
      { fieldName: 'isHidden', path: 'isHidden', type: 'BOOLEAN', queryByDefault: false },
      {
        fieldName: 'showInSearchFilters',
        path: 'showInSearchFilters',
        type: 'BOOLEAN',
        queryByDefault: false,
      },
      { fieldName: 'showInAssetSummary', path: 'showInAssetSummary', type: 'BOOLEAN', queryByDefault: false },
      { fieldName: 'showAsAssetBadge', path: 'showAsAssetBadge', type: 'BOOLEAN', queryByDefault: false },
      { fieldName: 'showInColumnsTable', path: 'showInColumnsTable', type: 'BOOLEAN', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'structuredProperties',
    schema: record('com.linkedin.structured.StructuredProperties', [
      req(
        'properties',
        arrayOf(
          record('com.linkedin.structured.StructuredPropertyValueAssignment', [
            req('propertyUrn', URN),
            // PrimitivePropertyValue: `{"string": ...}` or `{"double": ...}` on the wire.
            req('values', arrayOf(['string', 'double'])),
            opt('created', 'com.linkedin.common.AuditStamp'),
            opt('lastModified', 'com.linkedin.common.AuditStamp'),
            opt('attribution', 'com.linkedin.common.MetadataAttribution'),
          ]),
        ),
      ),
    ]),
    // The per-property search fields (`structuredProperties.<fqn>`) depend on the definitions, so the
    // indexer derives them; the assignment itself declares no static field.
  }),
];
