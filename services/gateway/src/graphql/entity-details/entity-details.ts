import type { GraphQLContext } from '../context.js';
import {
  auditStamp,
  customProperties,
  globalTags,
  glossaryTerms,
  schemaFieldType,
  str,
} from '../entities/aspect-views.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';

/**
 * Entity fields of the ecosystem's schema that its own clients select (mcp-server-datahub's entity query
 * among them), each read from the aspect the ecosystem's mappers read, with its types and nullability:
 * a schema field's business attribute, display properties, a feature table's properties, a group's and an
 * ownership type's info, an assertion's platform and kind-specific definitions, a dataset's view logic.
 */
export const entityDetailsSchema = `
type BusinessAttributeAssociation { businessAttribute: BusinessAttribute! associatedUrn: String! }
type BusinessAttributes { businessAttribute: BusinessAttributeAssociation }
extend type SchemaFieldEntity { businessAttributes: BusinessAttributes }
type BusinessAttributeInfo {
  name: String!
  description: String
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  customProperties: [CustomPropertiesEntry!]
  created: AuditStamp!
  lastModified: AuditStamp!
  deleted: AuditStamp
  type: SchemaFieldDataType
}
extend type BusinessAttribute { properties: BusinessAttributeInfo }

type CorpUserEditableInfo {
  displayName: String
  title: String
  aboutMe: String
  teams: [String!]
  skills: [String!]
  pictureLink: String
}
extend type CorpUser { editableInfo: CorpUserEditableInfo }

enum IconLibrary { MATERIAL }
type IconProperties { iconLibrary: IconLibrary name: String style: String }
type DisplayProperties { colorHex: String icon: IconProperties }
extend type Domain { displayProperties: DisplayProperties }
extend type GlossaryNode { displayProperties: DisplayProperties }

extend type MLFeatureTable { featureTableProperties: MLFeatureTableProperties }

type CorpGroupInfo {
  displayName: String
  description: String
  admins: [CorpUser!]
  members: [CorpUser!]
  groups: [String!]
  email: String
}
extend type CorpGroup { info: CorpGroupInfo }

type OwnershipTypeInfo { name: String! description: String created: AuditStamp lastModified: AuditStamp }
extend type OwnershipTypeEntity { info: OwnershipTypeInfo }

type ViewProperties { materialized: Boolean! logic: String! formattedLogic: String language: String! }
extend type Dataset { viewProperties: ViewProperties }

extend type Assertion { platform: DataPlatform! }

type DatasetAssertionInfo {
  datasetUrn: String!
  scope: DatasetAssertionScope!
  fields: [SchemaFieldRef!]
  aggregation: AssertionStdAggregation
  operator: AssertionStdOperator!
  parameters: AssertionStdParameters
  nativeType: String
  nativeParameters: [StringMapEntry!]
  logic: String
}
enum FieldAssertionType { FIELD_VALUES FIELD_METRIC }
enum FieldMetricType {
  UNIQUE_COUNT UNIQUE_PERCENTAGE NULL_COUNT NULL_PERCENTAGE MIN MAX MEAN MEDIAN STDDEV NEGATIVE_COUNT
  NEGATIVE_PERCENTAGE ZERO_COUNT ZERO_PERCENTAGE MIN_LENGTH MAX_LENGTH EMPTY_COUNT EMPTY_PERCENTAGE
}
enum FieldValuesFailThresholdType { COUNT PERCENTAGE }
type SchemaFieldSpec { path: String! type: String! nativeType: String! }
type FieldValuesFailThreshold { type: FieldValuesFailThresholdType! value: Long! }
type FieldValuesAssertion {
  field: SchemaFieldSpec!
  operator: AssertionStdOperator!
  parameters: AssertionStdParameters
  failThreshold: FieldValuesFailThreshold!
  excludeNulls: Boolean!
}
type FieldMetricAssertion {
  field: SchemaFieldSpec!
  metric: FieldMetricType!
  operator: AssertionStdOperator!
  parameters: AssertionStdParameters
}
type FieldAssertionInfo {
  type: FieldAssertionType!
  entityUrn: String!
  fieldValuesAssertion: FieldValuesAssertion
  fieldMetricAssertion: FieldMetricAssertion
}
enum VolumeAssertionType {
  ROW_COUNT_TOTAL ROW_COUNT_CHANGE INCREMENTING_SEGMENT_ROW_COUNT_TOTAL INCREMENTING_SEGMENT_ROW_COUNT_CHANGE
}
enum AssertionValueChangeType { ABSOLUTE PERCENTAGE }
type RowCountTotal { operator: AssertionStdOperator! parameters: AssertionStdParameters! }
type RowCountChange {
  type: AssertionValueChangeType!
  operator: AssertionStdOperator!
  parameters: AssertionStdParameters!
}
type VolumeAssertionInfo {
  type: VolumeAssertionType!
  entityUrn: String!
  rowCountTotal: RowCountTotal
  rowCountChange: RowCountChange
}
enum SqlAssertionType { METRIC METRIC_CHANGE }
type SqlAssertionInfo {
  type: SqlAssertionType!
  entityUrn: String!
  statement: String!
  changeType: AssertionValueChangeType
  operator: AssertionStdOperator!
  parameters: AssertionStdParameters!
}
extend type AssertionInfo {
  datasetAssertion: DatasetAssertionInfo
  fieldAssertion: FieldAssertionInfo
  volumeAssertion: VolumeAssertionInfo
  sqlAssertion: SqlAssertionInfo
}
`;

type Json = Readonly<Record<string, unknown>>;

const aspectOf = (ctx: GraphQLContext, ref: EntityRef, name: string) =>
  ctx.entities.aspect<Json>(ref.urn, name);
const record = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

/** AssertionStdParameters as stored (`{value: {value, type}, minValue, maxValue}`); absent parts null. */
function parameters(value: unknown) {
  const stored = record(value);
  if (stored === undefined) return null;
  const one = (part: unknown) => {
    const p = record(part);
    return p === undefined ? null : { value: str(p['value']) ?? '', type: str(p['type']) ?? 'UNKNOWN' };
  };
  return {
    value: one(stored['value']),
    minValue: one(stored['minValue']),
    maxValue: one(stored['maxValue']),
  };
}

/** Required parameters: the stored ones, or none of their parts. */
const requiredParameters = (value: unknown) =>
  parameters(value) ?? { value: null, minValue: null, maxValue: null };

function fieldSpec(value: unknown) {
  const spec = record(value) ?? {};
  return {
    path: str(spec['path']) ?? '',
    type: str(spec['type']) ?? '',
    nativeType: str(spec['nativeType']) ?? '',
  };
}

function datasetAssertion(value: unknown) {
  const stored = record(value);
  if (stored === undefined) return null;
  const params = record(stored['nativeParameters']);
  return {
    datasetUrn: str(stored['dataset']) ?? '',
    scope: str(stored['scope']) ?? 'UNKNOWN',
    fields: (Array.isArray(stored['fields']) ? stored['fields'] : []).flatMap((urn) => {
      const field = typeof urn === 'string' ? /^urn:li:schemaField:\(.*,(.*)\)$/.exec(urn) : null;
      return field === null ? [] : [{ urn, path: field[1] }];
    }),
    aggregation: str(stored['aggregation']),
    operator: str(stored['operator']) ?? '_NATIVE_',
    parameters: parameters(stored['parameters']),
    nativeType: str(stored['nativeType']),
    nativeParameters:
      params === undefined ? null : Object.entries(params).map(([key, v]) => ({ key, value: String(v) })),
    logic: str(stored['logic']),
  };
}

function fieldAssertion(value: unknown) {
  const stored = record(value);
  if (stored === undefined) return null;
  const values = record(stored['fieldValuesAssertion']);
  const metric = record(stored['fieldMetricAssertion']);
  const threshold = record(values?.['failThreshold']) ?? {};
  return {
    type: str(stored['type']) ?? 'FIELD_VALUES',
    entityUrn: str(stored['entity']) ?? '',
    fieldValuesAssertion:
      values === undefined
        ? null
        : {
            field: fieldSpec(values['field']),
            operator: str(values['operator']) ?? '_NATIVE_',
            parameters: parameters(values['parameters']),
            failThreshold: {
              type: str(threshold['type']) ?? 'COUNT',
              value: typeof threshold['value'] === 'number' ? threshold['value'] : 0,
            },
            excludeNulls: values['excludeNulls'] === true,
          },
    fieldMetricAssertion:
      metric === undefined
        ? null
        : {
            field: fieldSpec(metric['field']),
            metric: str(metric['metric']) ?? 'NULL_COUNT',
            operator: str(metric['operator']) ?? '_NATIVE_',
            parameters: parameters(metric['parameters']),
          },
  };
}

function volumeAssertion(value: unknown) {
  const stored = record(value);
  if (stored === undefined) return null;
  const total = record(stored['rowCountTotal']);
  const change = record(stored['rowCountChange']);
  return {
    type: str(stored['type']) ?? 'ROW_COUNT_TOTAL',
    entityUrn: str(stored['entity']) ?? '',
    rowCountTotal:
      total === undefined
        ? null
        : {
            operator: str(total['operator']) ?? '_NATIVE_',
            parameters: requiredParameters(total['parameters']),
          },
    rowCountChange:
      change === undefined
        ? null
        : {
            type: str(change['type']) ?? 'ABSOLUTE',
            operator: str(change['operator']) ?? '_NATIVE_',
            parameters: requiredParameters(change['parameters']),
          },
  };
}

function sqlAssertion(value: unknown) {
  const stored = record(value);
  if (stored === undefined) return null;
  return {
    type: str(stored['type']) ?? 'METRIC',
    entityUrn: str(stored['entity']) ?? '',
    statement: str(stored['statement']) ?? '',
    changeType: str(stored['changeType']),
    operator: str(stored['operator']) ?? '_NATIVE_',
    parameters: requiredParameters(stored['parameters']),
  };
}

async function displayProperties(ref: EntityRef, _a: unknown, ctx: GraphQLContext) {
  const value = await aspectOf(ctx, ref, 'displayProperties');
  if (value === undefined) return null;
  const icon = record(value['icon']);
  return {
    colorHex: str(value['colorHex']),
    icon:
      icon === undefined
        ? null
        : {
            // The model also names PHOSPHOR, which GraphQL's IconLibrary lacks.
            iconLibrary: icon['iconLibrary'] === 'MATERIAL' ? 'MATERIAL' : null,
            name: str(icon['name']),
            style: str(icon['style']),
          },
  };
}

const users = (value: unknown) => (Array.isArray(value) ? value.flatMap((u) => refOf(u) ?? []) : null);

export function entityDetailsResolvers(): Record<string, Record<string, unknown>> {
  return {
    SchemaFieldEntity: {
      businessAttributes: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'businessAttributes');
        if (value === undefined) return null;
        const association = record(value['businessAttribute']);
        const attribute = refOf(association?.['businessAttributeUrn']);
        return {
          businessAttribute:
            attribute === undefined ? null : { businessAttribute: attribute, associatedUrn: ref.urn },
        };
      },
    },
    BusinessAttribute: {
      properties: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'businessAttributeInfo');
        if (value === undefined) return null;
        return {
          name: str(value['name']) ?? str(value['fieldPath']) ?? ref.urn,
          description: str(value['description']),
          tags: globalTags(record(value['globalTags']), ref),
          glossaryTerms: glossaryTerms(record(value['glossaryTerms']), ref),
          customProperties: customProperties(value['customProperties'], ref),
          created: auditStamp(value['created']),
          lastModified: auditStamp(value['lastModified']),
          deleted: value['deleted'] === undefined ? null : auditStamp(value['deleted']),
          type: value['type'] === undefined ? null : schemaFieldType(value['type']),
        };
      },
    },
    CorpUser: {
      // The deprecated name of editableProperties: the same stored corpUserEditableInfo.
      editableInfo: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'corpUserEditableInfo');
        if (value === undefined) return null;
        const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : null);
        return {
          displayName: str(value['displayName']),
          title: str(value['title']),
          aboutMe: str(value['aboutMe']),
          teams: strings(value['teams']),
          skills: strings(value['skills']),
          pictureLink: str(value['pictureLink']),
        };
      },
    },
    Domain: { displayProperties },
    GlossaryNode: { displayProperties },
    MLFeatureTable: {
      featureTableProperties: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'mlFeatureTableProperties');
        if (value === undefined) return null;
        const refs = (v: unknown) => (Array.isArray(v) ? v.flatMap((u) => refOf(u) ?? []) : null);
        return {
          description: str(value['description']),
          mlFeatures: refs(value['mlFeatures']),
          mlPrimaryKeys: refs(value['mlPrimaryKeys']),
          customProperties: customProperties(value['customProperties'], ref),
        };
      },
    },
    CorpGroup: {
      info: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'corpGroupInfo');
        if (value === undefined) return null;
        return {
          displayName: str(value['displayName']),
          description: str(value['description']),
          admins: users(value['admins']),
          members: users(value['members']),
          groups: Array.isArray(value['groups']) ? value['groups'] : null,
          email: str(value['email']),
        };
      },
    },
    OwnershipTypeEntity: {
      info: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'ownershipTypeInfo');
        if (value === undefined) return null;
        return {
          name: str(value['name']) ?? ref.urn,
          description: str(value['description']),
          created: value['created'] === undefined ? null : auditStamp(value['created']),
          lastModified: value['lastModified'] === undefined ? null : auditStamp(value['lastModified']),
        };
      },
    },
    Dataset: {
      viewProperties: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'viewProperties');
        if (value === undefined) return null;
        return {
          materialized: value['materialized'] === true,
          logic: str(value['viewLogic']) ?? '',
          formattedLogic: str(value['formattedViewLogic']),
          language: str(value['viewLanguage']) ?? '',
        };
      },
    },
    Assertion: {
      // An assertion without a platform instance is on the ecosystem's unknown platform.
      platform: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) =>
        refOf((await aspectOf(ctx, ref, 'dataPlatformInstance'))?.['platform']) ?? {
          urn: 'urn:li:dataPlatform:unknown',
          entity: 'dataPlatform',
        },
    },
    AssertionInfo: {
      datasetAssertion: (info: Json) => datasetAssertion(info['datasetAssertion']),
      fieldAssertion: (info: Json) => fieldAssertion(info['fieldAssertion']),
      volumeAssertion: (info: Json) => volumeAssertion(info['volumeAssertion']),
      sqlAssertion: (info: Json) => sqlAssertion(info['sqlAssertion']),
    },
  };
}
