import {
  arrayOf,
  aspect,
  enumOf,
  opt,
  record,
  req,
  TIMESERIES_BASE,
  TIMESERIES_SEARCHABLE,
  UNKNOWN_AUDIT_STAMP,
  URN,
  mapOf,
  type AspectDefinition,
} from '../avro-schema.js';
import { GLOBAL_TAGS, GLOSSARY_TERMS } from './shared-types.js';

const OWNERSHIP_TYPES = [
  'CUSTOM',
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'DEVELOPER',
  'DATAOWNER',
  'DELEGATE',
  'PRODUCER',
  'CONSUMER',
  'STAKEHOLDER',
];

/** Aspects of the `com.linkedin.common` namespace that most asset entities carry. */
export const COMMON_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'ownership',
    schema: record('com.linkedin.common.Ownership', [
      req(
        'owners',
        arrayOf(
          record('com.linkedin.common.Owner', [
            req('owner', URN),
            req('type', enumOf('com.linkedin.common.OwnershipType', OWNERSHIP_TYPES)),
            opt('typeUrn', URN),
            opt(
              'source',
              record('com.linkedin.common.OwnershipSource', [
                req(
                  'type',
                  enumOf('com.linkedin.common.OwnershipSourceType', [
                    'AUDIT',
                    'DATABASE',
                    'FILE_SYSTEM',
                    'ISSUE_TRACKING_SYSTEM',
                    'MANUAL',
                    'SERVICE',
                    'SOURCE_CONTROL',
                    'OTHER',
                  ]),
                ),
                opt('url', 'string'),
              ]),
            ),
            opt('attribution', 'com.linkedin.common.MetadataAttribution'),
          ]),
        ),
      ),
      opt('ownerTypes', mapOf(arrayOf(URN))),
      req('lastModified', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
    ]),
    searchable: [
      {
        fieldName: 'owners',
        path: 'owners/*/owner',
        type: 'URN',
        addToFilters: true,
        hasValuesFieldName: 'hasOwners',
        queryByDefault: false,
        filterName: 'Owned By',
      },
    ],
    relationships: [{ name: 'OwnedBy', path: 'owners/*/owner', entityTypes: ['corpuser', 'corpGroup'] }],
  }),
  aspect({
    name: 'globalTags',
    schema: GLOBAL_TAGS,
    searchable: [
      {
        fieldName: 'tags',
        path: 'tags/*/tag',
        type: 'URN',
        boost: 0.5,
        addToFilters: true,
        hasValuesFieldName: 'hasTags',
        filterName: 'Tag',
      },
    ],
    relationships: [{ name: 'TaggedWith', path: 'tags/*/tag', entityTypes: ['tag'] }],
  }),
  aspect({
    name: 'glossaryTerms',
    schema: GLOSSARY_TERMS,
    searchable: [
      {
        fieldName: 'glossaryTerms',
        path: 'terms/*/urn',
        type: 'URN',
        boost: 0.5,
        addToFilters: true,
        hasValuesFieldName: 'hasGlossaryTerms',
        filterName: 'Glossary Term',
      },
    ],
    relationships: [{ name: 'TermedWith', path: 'terms/*/urn', entityTypes: ['glossaryTerm'] }],
  }),
  aspect({
    name: 'status',
    schema: record('com.linkedin.common.Status', [req('removed', 'boolean', false)]),
    searchable: [{ fieldName: 'removed', path: 'removed', type: 'BOOLEAN' }],
  }),
  aspect({
    name: 'institutionalMemory',
    schema: record('com.linkedin.common.InstitutionalMemory', [
      req(
        'elements',
        arrayOf(
          record('com.linkedin.common.InstitutionalMemoryMetadata', [
            req('url', 'string'),
            req('description', 'string'),
            req('createStamp', 'com.linkedin.common.AuditStamp'),
            opt('updateStamp', 'com.linkedin.common.AuditStamp'),
          ]),
        ),
      ),
    ]),
  }),
  aspect({
    name: 'browsePaths',
    schema: record('com.linkedin.common.BrowsePaths', [req('paths', arrayOf('string'))]),
    searchable: [{ fieldName: 'browsePaths', path: 'paths', type: 'BROWSE_PATH' }],
  }),
  aspect({
    name: 'browsePathsV2',
    schema: record('com.linkedin.common.BrowsePathsV2', [
      req(
        'path',
        arrayOf(record('com.linkedin.common.BrowsePathEntry', [req('id', 'string'), opt('urn', URN)])),
      ),
    ]),
    searchable: [{ fieldName: 'browsePathV2', path: 'path', type: 'BROWSE_PATH' }],
  }),
  aspect({
    name: 'subTypes',
    schema: record('com.linkedin.common.SubTypes', [req('typeNames', arrayOf('string'))]),
    searchable: [
      {
        fieldName: 'typeNames',
        path: 'typeNames',
        type: 'KEYWORD',
        addToFilters: true,
        filterName: 'Sub Type',
      },
    ],
  }),
  aspect({
    name: 'deprecation',
    schema: record('com.linkedin.common.Deprecation', [
      req('deprecated', 'boolean'),
      opt('decommissionTime', 'long'),
      req('note', 'string'),
      req('actor', URN),
      opt('replacement', URN),
    ]),
    searchable: [
      {
        fieldName: 'deprecated',
        path: 'deprecated',
        type: 'BOOLEAN',
        addToFilters: true,
        filterName: 'Deprecated',
      },
    ],
  }),
  aspect({
    name: 'dataPlatformInstance',
    schema: record('com.linkedin.common.DataPlatformInstance', [req('platform', URN), opt('instance', URN)]),
    searchable: [
      { fieldName: 'platform', path: 'platform', type: 'URN', addToFilters: true, filterName: 'Platform' },
      {
        fieldName: 'platformInstance',
        path: 'instance',
        type: 'URN',
        addToFilters: true,
        filterName: 'Instance',
      },
    ],
  }),
  aspect({
    name: 'operation',
    kind: 'timeseries',
    schema: record('com.linkedin.common.Operation', [
      ...TIMESERIES_BASE,
      opt('actor', URN),
      req(
        'operationType',
        enumOf('com.linkedin.common.OperationType', [
          'INSERT',
          'UPDATE',
          'DELETE',
          'CREATE',
          'ALTER',
          'DROP',
          'CUSTOM',
          'UNKNOWN',
        ]),
      ),
      opt('customOperationType', 'string'),
      opt('numAffectedRows', 'long'),
      opt('affectedDatasets', arrayOf(URN)),
      opt(
        'sourceType',
        enumOf('com.linkedin.common.OperationSourceType', ['DATA_PROCESS', 'DATA_PLATFORM', 'MANUAL']),
      ),
      opt('customProperties', mapOf('string')),
      req('lastUpdatedTimestamp', 'long'),
      opt('queries', arrayOf(URN)),
    ]),
    searchable: [
      ...TIMESERIES_SEARCHABLE,
      { fieldName: 'actor', path: 'actor', type: 'URN', queryByDefault: false },
      { fieldName: 'operationType', path: 'operationType', type: 'KEYWORD', queryByDefault: false },
      {
        fieldName: 'customOperationType',
        path: 'customOperationType',
        type: 'KEYWORD',
        queryByDefault: false,
      },
      { fieldName: 'numAffectedRows', path: 'numAffectedRows', type: 'COUNT', queryByDefault: false },
      {
        fieldName: 'lastUpdatedTimestamp',
        path: 'lastUpdatedTimestamp',
        type: 'DATETIME',
        queryByDefault: false,
      },
      { fieldName: 'sourceType', path: 'sourceType', type: 'KEYWORD', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'container',
    schema: record('com.linkedin.container.Container', [req('container', URN)]),
    searchable: [
      {
        fieldName: 'container',
        path: 'container',
        type: 'URN',
        addToFilters: true,
        filterName: 'Container',
        hasValuesFieldName: 'hasContainer',
      },
    ],
    relationships: [{ name: 'IsPartOf', path: 'container', entityTypes: ['container'] }],
  }),
  aspect({
    name: 'domains',
    schema: record('com.linkedin.domain.Domains', [req('domains', arrayOf(URN))]),
    searchable: [
      {
        fieldName: 'domains',
        path: 'domains',
        type: 'URN',
        addToFilters: true,
        hasValuesFieldName: 'hasDomain',
        filterName: 'Domain',
      },
    ],
    relationships: [{ name: 'AssociatedWith', path: 'domains', entityTypes: ['domain'] }],
  }),
];
