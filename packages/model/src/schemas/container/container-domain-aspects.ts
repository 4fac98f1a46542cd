import {
  aspect,
  CUSTOM_PROPERTIES,
  EXTERNAL_URL,
  opt,
  record,
  req,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

const ENTITY_NAME = {
  fieldName: 'name',
  path: 'name',
  type: 'WORD_GRAM',
  boost: 10,
  enableAutocomplete: true,
  fieldNameAliases: ['_entityName'],
} as const;

/** Aspects of containers, domains, and the data type / entity type entities of structured properties. */
export const CONTAINER_DOMAIN_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'containerProperties',
    schema: record('com.linkedin.container.ContainerProperties', [
      CUSTOM_PROPERTIES,
      EXTERNAL_URL,
      req('name', 'string'),
      opt('qualifiedName', 'string'),
      opt('description', 'string'),
      opt('env', 'com.linkedin.common.FabricType'),
      opt('created', 'com.linkedin.common.TimeStamp'),
      opt('lastModified', 'com.linkedin.common.TimeStamp'),
    ]),
    searchable: [
      { fieldName: 'customProperties', path: 'customProperties', type: 'TEXT', queryByDefault: true },
      ENTITY_NAME,
      { fieldName: 'qualifiedName', path: 'qualifiedName', type: 'WORD_GRAM' },
      { fieldName: 'description', path: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
      {
        fieldName: 'env',
        path: 'env',
        type: 'KEYWORD',
        addToFilters: true,
        filterName: 'Environment',
        queryByDefault: false,
      },
      { fieldName: 'createdAt', path: 'created/time', type: 'DATETIME', queryByDefault: false },
      { fieldName: 'lastModifiedAt', path: 'lastModified/time', type: 'DATETIME', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'editableContainerProperties',
    schema: record('com.linkedin.container.EditableContainerProperties', [opt('description', 'string')]),
    searchable: [{ fieldName: 'editedDescription', path: 'description', type: 'TEXT' }],
  }),
  aspect({
    name: 'domainProperties',
    schema: record('com.linkedin.domain.DomainProperties', [
      req('name', 'string'),
      opt('description', 'string'),
      opt('created', 'com.linkedin.common.AuditStamp'),
      opt('parentDomain', URN),
    ]),
    searchable: [
      ENTITY_NAME,
      { fieldName: 'description', path: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
      { fieldName: 'createdTime', path: 'created/time', type: 'DATETIME', queryByDefault: false },
      { fieldName: 'parentDomain', path: 'parentDomain', type: 'URN', queryByDefault: false },
    ],
    relationships: [{ name: 'IsPartOf', path: 'parentDomain', entityTypes: ['domain'] }],
  }),
  aspect({
    name: 'dataTypeInfo',
    schema: record('com.linkedin.datatype.DataTypeInfo', [
      req('qualifiedName', 'string'),
      opt('displayName', 'string'),
      opt('description', 'string'),
    ]),
    searchable: [
      { fieldName: 'qualifiedName', path: 'qualifiedName', type: 'KEYWORD' },
      { fieldName: 'displayName', path: 'displayName', type: 'WORD_GRAM', enableAutocomplete: true },
    ],
  }),
  aspect({
    name: 'entityTypeInfo',
    schema: record('com.linkedin.entitytype.EntityTypeInfo', [
      req('qualifiedName', 'string'),
      opt('displayName', 'string'),
      opt('description', 'string'),
    ]),
    searchable: [
      { fieldName: 'qualifiedName', path: 'qualifiedName', type: 'KEYWORD' },
      { fieldName: 'displayName', path: 'displayName', type: 'WORD_GRAM', enableAutocomplete: true },
    ],
  }),
];
