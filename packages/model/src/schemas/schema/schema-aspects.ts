import {
  arrayOf,
  aspect,
  mapOf,
  opt,
  record,
  req,
  UNKNOWN_AUDIT_STAMP,
  URN,
  type AspectDefinition,
  type RecordSchema,
} from '../avro-schema.js';

const NS = 'com.linkedin.schema';

/** The platform-independent field types: an empty record per kind, except the container kinds. */
const FIELD_TYPES: readonly RecordSchema[] = [
  record(`${NS}.BooleanType`, []),
  record(`${NS}.FixedType`, []),
  record(`${NS}.StringType`, []),
  record(`${NS}.BytesType`, []),
  record(`${NS}.NumberType`, []),
  record(`${NS}.DateType`, []),
  record(`${NS}.TimeType`, []),
  record(`${NS}.EnumType`, []),
  record(`${NS}.NullType`, []),
  record(`${NS}.MapType`, [opt('keyType', 'string'), opt('valueType', 'string')]),
  record(`${NS}.ArrayType`, [opt('nestedType', arrayOf('string'))]),
  record(`${NS}.UnionType`, [opt('nestedTypes', arrayOf('string'))]),
  record(`${NS}.RecordType`, []),
];

/** The native schema kinds of SchemaMetadata.platformSchema. */
const PLATFORM_SCHEMAS: readonly RecordSchema[] = [
  record(`${NS}.EspressoSchema`, [req('documentSchema', 'string'), req('tableSchema', 'string')]),
  record(`${NS}.OracleDDL`, [req('tableSchema', 'string')]),
  record(`${NS}.MySqlDDL`, [req('tableSchema', 'string')]),
  record(`${NS}.PrestoDDL`, [req('rawSchema', 'string')]),
  record(`${NS}.KafkaSchema`, [
    req('documentSchema', 'string'),
    opt('documentSchemaType', 'string'),
    opt('keySchema', 'string'),
    opt('keySchemaType', 'string'),
  ]),
  record(`${NS}.BinaryJsonSchema`, [req('schema', 'string')]),
  record(`${NS}.OrcSchema`, [req('schema', 'string')]),
  record(`${NS}.Schemaless`, []),
  record(`${NS}.KeyValueSchema`, [req('keySchema', 'string'), req('valueSchema', 'string')]),
  record(`${NS}.OtherSchema`, [req('rawSchema', 'string')]),
];

const SCHEMA_FIELD = record(`${NS}.SchemaField`, [
  req('fieldPath', 'string'),
  opt('jsonPath', 'string'),
  req('nullable', 'boolean', false),
  opt('description', 'string'),
  opt('label', 'string'),
  opt('created', 'com.linkedin.common.AuditStamp'),
  opt('lastModified', 'com.linkedin.common.AuditStamp'),
  req('type', record(`${NS}.SchemaFieldDataType`, [req('type', FIELD_TYPES)])),
  req('nativeDataType', 'string'),
  req('recursive', 'boolean', false),
  opt('globalTags', 'com.linkedin.common.GlobalTags'),
  opt('glossaryTerms', 'com.linkedin.common.GlossaryTerms'),
  req('isPartOfKey', 'boolean', false),
  opt('isPartitioningKey', 'boolean'),
  opt('jsonProps', 'string'),
]);

/** Aspects of the `com.linkedin.schema` namespace. */
export const SCHEMA_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'schemaMetadata',
    schema: record(`${NS}.SchemaMetadata`, [
      req('schemaName', 'string'),
      req('platform', URN),
      req('version', 'long'),
      req('created', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      req('lastModified', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      opt('deleted', 'com.linkedin.common.AuditStamp'),
      opt('dataset', URN),
      opt('cluster', 'string'),
      req('hash', 'string'),
      req('platformSchema', PLATFORM_SCHEMAS),
      req('fields', arrayOf(SCHEMA_FIELD)),
      opt('primaryKeys', arrayOf('string')),
      opt(
        'foreignKeysSpecs',
        mapOf(
          record(`${NS}.ForeignKeySpec`, [
            req('foreignKey', [
              record(`${NS}.DatasetFieldForeignKey`, [
                req('parentDataset', URN),
                req('currentFieldPaths', arrayOf('string')),
                req('parentField', 'string'),
              ]),
              record(`${NS}.UrnForeignKey`, [req('currentFieldPath', 'string')]),
            ]),
          ]),
        ),
      ),
      opt(
        'foreignKeys',
        arrayOf(
          record(`${NS}.ForeignKeyConstraint`, [
            req('name', 'string'),
            req('foreignFields', arrayOf(URN)),
            req('sourceFields', arrayOf(URN)),
            req('foreignDataset', URN),
          ]),
        ),
      ),
    ]),
    searchable: [
      { fieldName: 'fieldPaths', path: 'fields/*/fieldPath', type: 'TEXT', boost: 5 },
      { fieldName: 'fieldDescriptions', path: 'fields/*/description', type: 'TEXT', boost: 0.1 },
      { fieldName: 'fieldLabels', path: 'fields/*/label', type: 'TEXT', boost: 0.2 },
      { fieldName: 'fieldTags', path: 'fields/*/globalTags/tags/*/tag', type: 'URN', boost: 0.5 },
      {
        fieldName: 'fieldGlossaryTerms',
        path: 'fields/*/glossaryTerms/terms/*/urn',
        type: 'URN',
        boost: 0.5,
      },
    ],
    relationships: [
      { name: 'SchemaFieldTaggedWith', path: 'fields/*/globalTags/tags/*/tag', entityTypes: ['tag'] },
      {
        name: 'SchemaFieldWithGlossaryTerm',
        path: 'fields/*/glossaryTerms/terms/*/urn',
        entityTypes: ['glossaryTerm'],
      },
      { name: 'ForeignKeyTo', path: 'foreignKeys/*/foreignFields/*', entityTypes: ['schemaField'] },
      { name: 'ForeignKeyToDataset', path: 'foreignKeys/*/foreignDataset', entityTypes: ['dataset'] },
    ],
  }),
  aspect({
    name: 'editableSchemaMetadata',
    schema: record(`${NS}.EditableSchemaMetadata`, [
      req('created', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      req('lastModified', 'com.linkedin.common.AuditStamp', UNKNOWN_AUDIT_STAMP),
      opt('deleted', 'com.linkedin.common.AuditStamp'),
      req(
        'editableSchemaFieldInfo',
        arrayOf(
          record(`${NS}.EditableSchemaFieldInfo`, [
            req('fieldPath', 'string'),
            opt('description', 'string'),
            opt('globalTags', 'com.linkedin.common.GlobalTags'),
            opt('glossaryTerms', 'com.linkedin.common.GlossaryTerms'),
          ]),
        ),
      ),
    ]),
    searchable: [
      {
        fieldName: 'editedFieldDescriptions',
        path: 'editableSchemaFieldInfo/*/description',
        type: 'TEXT',
        boost: 0.1,
      },
      {
        fieldName: 'editedFieldTags',
        path: 'editableSchemaFieldInfo/*/globalTags/tags/*/tag',
        type: 'URN',
        boost: 0.5,
      },
      {
        fieldName: 'editedFieldGlossaryTerms',
        path: 'editableSchemaFieldInfo/*/glossaryTerms/terms/*/urn',
        type: 'URN',
        boost: 0.5,
      },
    ],
    relationships: [
      {
        name: 'EditableSchemaFieldTaggedWith',
        path: 'editableSchemaFieldInfo/*/globalTags/tags/*/tag',
        entityTypes: ['tag'],
      },
      {
        name: 'EditableSchemaFieldWithGlossaryTerm',
        path: 'editableSchemaFieldInfo/*/glossaryTerms/terms/*/urn',
        entityTypes: ['glossaryTerm'],
      },
    ],
  }),
];
