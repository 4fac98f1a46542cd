import { namedAvroType } from '@catalog/model';
import { STRUCTURED_PROPERTY_ENTITY_FIELDS } from '../structured-properties/structured-properties-schema.js';
import { ENTITY_TYPES, RESOLVABLE_TYPES } from './entity-types.js';

/** Fields every entity type carries: what the common aspects hold, null where the entity has none. */
const COMMON_FIELDS = `
  urn: String!
  type: EntityType!
  exists: Boolean
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
  lineage(input: LineageInput!): EntityLineageResult
  aspects(input: AspectParams): [RawAspect!]
  status: Status
  ownership: Ownership
  tags: GlobalTags
  globalTags: GlobalTags @deprecated(reason: "Use tags")
  glossaryTerms: GlossaryTerms
  domain: DomainAssociation
  deprecation: Deprecation
  institutionalMemory: InstitutionalMemory
  subTypes: SubTypes
  container: Container
  browsePathV2: BrowsePathV2
  dataPlatformInstance: DataPlatformInstance
  structuredProperties: StructuredProperties`;

/** Fields of the entity types that have more than the common ones. */
const SPECIFIC_FIELDS: Readonly<Record<string, string>> = {
  Dataset: `
  name: String!
  platform: DataPlatform!
  origin: FabricType!
  description: String @deprecated(reason: "Use properties.description")
  properties: DatasetProperties
  editableProperties: DatasetEditableProperties
  schemaMetadata(version: Long): SchemaMetadata
  editableSchemaMetadata: EditableSchemaMetadata
  datasetProfiles(startTimeMillis: Long, endTimeMillis: Long, filter: FilterInput, limit: Int): [DatasetProfile!]
  statsSummary: DatasetStatsSummary`,
  Chart: `
  tool: String!
  chartId: String!
  platform: DataPlatform!
  properties: ChartProperties
  editableProperties: ChartEditableProperties
  query: ChartQuery
  inputFields: InputFields`,
  Dashboard: `
  tool: String!
  dashboardId: String!
  platform: DataPlatform!
  properties: DashboardProperties
  editableProperties: DashboardEditableProperties
  statsSummary: DashboardStatsSummary
  inputFields: InputFields`,
  DataFlow: `
  orchestrator: String!
  flowId: String!
  cluster: String!
  platform: DataPlatform!
  properties: DataFlowProperties
  editableProperties: DataFlowEditableProperties`,
  DataJob: `
  jobId: String!
  dataFlow: DataFlow
  platform: DataPlatform
  properties: DataJobProperties
  editableProperties: DataJobEditableProperties
  inputOutput: DataJobInputOutput`,
  CorpUser: `
  username: String!
  isNativeUser: Boolean
  properties: CorpUserProperties
  editableProperties: CorpUserEditableProperties
  info: CorpUserInfo @deprecated(reason: "Use properties")`,
  CorpGroup: `
  name: String!
  properties: CorpGroupProperties
  editableProperties: CorpGroupEditableProperties`,
  Tag: `
  name: String! @deprecated(reason: "Use properties.name")
  description: String @deprecated(reason: "Use properties.description")
  properties: TagProperties`,
  GlossaryTerm: `
  name: String! @deprecated(reason: "Use properties.name")
  hierarchicalName: String!
  properties: GlossaryTermProperties
  parentNodes: ParentNodesResult`,
  GlossaryNode: `
  properties: GlossaryNodeProperties
  parentNodes: ParentNodesResult
  childrenCount: GlossaryNodeChildrenCount
  glossaryChildrenSearch(input: ScrollAcrossEntitiesInput!): ScrollResults`,
  Container: `
  platform: DataPlatform!
  properties: ContainerProperties
  editableProperties: ContainerEditableProperties`,
  Domain: `
  id: String!
  properties: DomainProperties`,
  DataPlatform: `
  name: String!
  displayName: String
  properties: DataPlatformProperties`,
  DataPlatformInstance: `
  platform: DataPlatform!
  instanceId: String!`,
  SchemaFieldEntity: `
  fieldPath: String!
  parent: Entity!`,
  MLModel: `
  name: String!
  platform: DataPlatform!
  origin: FabricType!
  description: String
  properties: MLModelProperties`,
  MLModelGroup: `
  name: String!
  platform: DataPlatform!
  origin: FabricType!
  description: String
  properties: MLModelGroupProperties`,
  MLFeature: `
  name: String!
  featureNamespace: String!
  description: String
  properties: MLFeatureProperties`,
  MLPrimaryKey: `
  name: String!
  featureNamespace: String!
  description: String
  properties: MLPrimaryKeyProperties`,
  MLFeatureTable: `
  name: String!
  platform: DataPlatform!
  description: String
  properties: MLFeatureTableProperties`,
  DataProcessInstance: `
  name: String
  properties: DataProcessInstanceProperties
  mlTrainingRunProperties: MLTrainingRunProperties`,
  VersionSet: `
  latestVersion: Entity
  versionsSearch(input: SearchAcrossEntitiesInput!): SearchResults`,
  ...STRUCTURED_PROPERTY_ENTITY_FIELDS,
};

/** Enum symbols of a registry enum, by its wire name (e.g. `com.linkedin.common.FabricType`). */
function enumSymbols(name: string): string {
  const type = namedAvroType(name) as { readonly symbols?: readonly string[] } | undefined;
  if (type?.symbols === undefined) throw new Error(`The registry has no enum ${name}`);
  return type.symbols.join(' ');
}

/** A user's `status` is its account state (ACTIVE, SUSPENDED), as in the ecosystem; other types' is Status. */
const STATUS_FIELD_TYPES: Readonly<Record<string, string>> = {
  CorpUser: 'CorpUserStatus',
  DataContract: 'DataContractStatus',
  Incident: 'IncidentStatus!',
};

/**
 * Types of the EntityType enum that the ecosystem does not make entities: an ingestion source's `type`
 * is its source type (mysql, …), a String. Their slices define their other fields.
 */
export const NON_ENTITY_TYPES: Readonly<Record<string, string>> = {
  IngestionSource: `
  urn: String!
  type: String!
  ownership: Ownership`,
};

function entityTypeSdl(typeName: string): string {
  const nonEntity = NON_ENTITY_TYPES[typeName];
  if (nonEntity !== undefined) return `type ${typeName} {${nonEntity}\n}`;
  const common = COMMON_FIELDS.replace(
    'status: Status',
    `status: ${STATUS_FIELD_TYPES[typeName] ?? 'Status'}`,
  );
  return `type ${typeName} implements Entity & EntityWithRelationships {${common}${SPECIFIC_FIELDS[typeName] ?? ''}
}`;
}

/** The entity part of the schema: the EntityType enum, the Entity interface and one type per entity. */
export function entitySchema(): string {
  const named = RESOLVABLE_TYPES.map((t) => t.typeName);
  return `
scalar Long

enum EntityType { ${ENTITY_TYPES.map((t) => t.value).join(' ')} }
enum FabricType { ${enumSymbols('com.linkedin.common.FabricType')} }
enum OwnershipType { ${enumSymbols('com.linkedin.common.OwnershipType')} }
enum RelationshipDirection { INCOMING OUTGOING }
enum LineageDirection { UPSTREAM DOWNSTREAM }
enum SchemaFieldDataType { BOOLEAN FIXED STRING BYTES NUMBER DATE TIME ENUM NULL MAP ARRAY UNION STRUCT }

interface Entity {
  urn: String!
  type: EntityType!
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
}

interface EntityWithRelationships implements Entity {
  urn: String!
  type: EntityType!
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
  lineage(input: LineageInput!): EntityLineageResult
}

input RelationshipsInput {
  types: [String!]!
  direction: RelationshipDirection!
  start: Int
  count: Int
  includeSoftDelete: Boolean = true
}

type EntityRelationshipsResult {
  start: Int
  count: Int
  total: Int
  relationships: [EntityRelationship!]!
}

type EntityRelationship {
  type: String!
  direction: RelationshipDirection!
  entity: Entity
  created: AuditStamp
}

input LineageInput {
  direction: LineageDirection!
  start: Int
  count: Int
  separateSiblings: Boolean
  startTimeMillis: Long
  endTimeMillis: Long
  includeGhostEntities: Boolean = false
}

type EntityLineageResult {
  start: Int
  count: Int
  total: Int
  filtered: Int
  relationships: [LineageRelationship!]!
}

type LineageRelationship {
  type: String!
  entity: Entity
  degree: Int!
  createdOn: Long
  createdActor: Entity
  updatedOn: Long
  updatedActor: Entity
  isManual: Boolean
  paths: [EntityPath]
}

input AspectParams {
  aspectNames: [String!]
  autoRenderOnly: Boolean
}

type RawAspect {
  aspectName: String!
  payload: String
}

type AuditStamp { time: Long! actor: String }
type Status { removed: Boolean! }
type SubTypes { typeNames: [String!] }
type CustomPropertiesEntry { key: String! value: String associatedUrn: String! }
type GlobalTags { tags: [TagAssociation!] }
type TagAssociation { tag: Tag! associatedUrn: String! context: String }
type GlossaryTerms { terms: [GlossaryTermAssociation!] }
type GlossaryTermAssociation { term: GlossaryTerm! actor: CorpUser associatedUrn: String! }
union OwnerType = CorpUser | CorpGroup
type Owner {
  owner: OwnerType!
  type: OwnershipType @deprecated(reason: "Use ownershipType")
  ownershipType: OwnershipTypeEntity
  associatedUrn: String!
}
type Ownership { owners: [Owner!] lastModified: AuditStamp! }
type Deprecation { deprecated: Boolean! decommissionTime: Long note: String actor: String actorEntity: Entity }
type DomainAssociation { domain: Domain! associatedUrn: String! }
type InstitutionalMemory { elements: [InstitutionalMemoryMetadata!]! }
type InstitutionalMemoryMetadata {
  url: String!
  description: String!
  label: String!
  created: AuditStamp!
  associatedUrn: String!
}
type BrowsePathV2 { path: [BrowsePathEntry!]! }
type BrowsePathEntry { name: String! entity: Entity }
type ChartEditableProperties { description: String }
type DashboardEditableProperties { description: String }
type DataFlowEditableProperties { description: String }
type DataJobEditableProperties { description: String }
type ContainerEditableProperties { description: String }
type VersionTag { versionTag: String }
type MLMetric { name: String description: String value: String createdAt: Long }
type MLHyperParam { name: String description: String value: String createdAt: Long }
type MLModelProperties {
  name: String
  description: String
  date: Long
  created: AuditStamp
  lastModified: AuditStamp
  externalUrl: String
  version: String
  type: String
  tags: [String!]
  mlFeatures: [String!]
  trainingMetrics: [MLMetric]
  hyperParams: [MLHyperParam]
  groups: [MLModelGroup]
  customProperties: [CustomPropertiesEntry!]
}
type MLModelGroupProperties {
  name: String
  description: String
  createdAt: Long
  created: AuditStamp
  lastModified: AuditStamp
  externalUrl: String
  version: VersionTag
  customProperties: [CustomPropertiesEntry!]
}
type MLFeatureProperties {
  description: String
  version: VersionTag
  sources: [Dataset]
  customProperties: [CustomPropertiesEntry!]
}
type MLPrimaryKeyProperties {
  description: String
  version: VersionTag
  sources: [Dataset]
  customProperties: [CustomPropertiesEntry!]
}
type MLFeatureTableProperties {
  description: String
  mlFeatures: [MLFeature]
  mlPrimaryKeys: [MLPrimaryKey]
  customProperties: [CustomPropertiesEntry!]
}
type MLTrainingRunProperties {
  id: String
  outputUrls: [String]
  hyperParams: [MLHyperParam]
  trainingMetrics: [MLMetric]
}
type DataProcessInstanceProperties {
  name: String!
  externalUrl: String
  created: AuditStamp!
  customProperties: [CustomPropertiesEntry!]
}
enum DataContractState { ACTIVE PENDING }
type DataContractStatus { state: DataContractState! }
enum IncidentState { ACTIVE RESOLVED }
enum IncidentStage { TRIAGE INVESTIGATION WORK_IN_PROGRESS FIXED NO_ACTION_REQUIRED }
type IncidentStatus { state: IncidentState! stage: IncidentStage message: String lastUpdated: AuditStamp! }
input FilterInput { and: [FacetFilterInput!]! }
type DatasetProfile {
  timestampMillis: Long!
  rowCount: Long
  columnCount: Long
  sizeInBytes: Long
  fieldProfiles: [DatasetFieldProfile!]
}
type DatasetFieldProfile {
  fieldPath: String!
  uniqueCount: Long
  uniqueProportion: Float
  nullCount: Long
  nullProportion: Float
  min: String
  max: String
  mean: String
  median: String
  stdev: String
  sampleValues: [String!]
}
type DashboardStatsSummary {
  viewCount: Int
  viewCountLast30Days: Int
  uniqueUserCountLast30Days: Int
  topUsersLast30Days: [CorpUser!]
}
type DatasetStatsSummary {
  queryCountLast30Days: Int
  uniqueUserCountLast30Days: Int
  topUsersLast30Days: [CorpUser!]
}

type DatasetProperties {
  name: String!
  qualifiedName: String
  origin: FabricType!
  description: String
  customProperties: [CustomPropertiesEntry!]
  externalUrl: String
  created: Long
  lastModified: AuditStamp!
}
type DatasetEditableProperties { description: String name: String }
type SchemaMetadata {
  datasetUrn: String
  aspectVersion: Long
  createdAt: Long
  cluster: String
  name: String!
  platformUrn: String!
  version: Long!
  hash: String!
  fields: [SchemaField!]!
  primaryKeys: [String!]
  platformSchema: PlatformSchema
  foreignKeys: [ForeignKeyConstraint]
}
type TableSchema { schema: String! }
type KeyValueSchema { keySchema: String! valueSchema: String! }
union PlatformSchema = TableSchema | KeyValueSchema
type ForeignKeyConstraint {
  name: String
  foreignFields: [SchemaFieldEntity]
  sourceFields: [SchemaFieldEntity]
  foreignDataset: Dataset
}
type SchemaField {
  fieldPath: String!
  nullable: Boolean!
  recursive: Boolean!
  type: SchemaFieldDataType!
  nativeDataType: String
  description: String
  isPartOfKey: Boolean
  isPartitioningKey: Boolean
  jsonPath: String
  label: String
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  schemaFieldEntity: SchemaFieldEntity
}
type EditableSchemaMetadata { editableSchemaFieldInfo: [EditableSchemaFieldInfo!]! }
type EditableSchemaFieldInfo {
  fieldPath: String!
  description: String
  tags: GlobalTags
  globalTags: GlobalTags
  glossaryTerms: GlossaryTerms
}
enum AccessLevel { PUBLIC PRIVATE }
enum ChartType { BAR PIE SCATTER TABLE TEXT LINE AREA HISTOGRAM BOX_PLOT WORD_CLOUD COHORT }
type ChartProperties {
  name: String!
  description: String
  type: ChartType
  access: AccessLevel
  externalUrl: String
  chartUrl: String
  customProperties: [CustomPropertiesEntry!]
  lastRefreshed: Long
  created: AuditStamp!
  lastModified: AuditStamp!
}
enum ChartQueryType { SQL LOOKML }
type ChartQuery { rawQuery: String! type: ChartQueryType! }
type InputFields { fields: [InputField] }
type InputField { schemaFieldUrn: String schemaField: SchemaField }
type DashboardProperties {
  name: String!
  description: String
  access: AccessLevel
  externalUrl: String
  dashboardUrl: String
  customProperties: [CustomPropertiesEntry!]
  lastRefreshed: Long
  created: AuditStamp!
  lastModified: AuditStamp!
}
type DataFlowProperties {
  name: String!
  description: String
  project: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}
type DataJobProperties {
  name: String!
  description: String
  externalUrl: String
  customProperties: [CustomPropertiesEntry!]
}
type DataJobInputOutput {
  inputDatasets: [Dataset!]
  outputDatasets: [Dataset!]
  inputDatajobs: [DataJob!]
}
type CorpUserProperties {
  active: Boolean!
  displayName: String
  email: String
  title: String
  firstName: String
  lastName: String
  fullName: String
  customProperties: [CustomPropertiesEntry!]
}
type CorpUserEditableProperties {
  displayName: String
  title: String
  aboutMe: String
  teams: [String!]
  skills: [String!]
  pictureLink: String
  slack: String
  phone: String
  email: String
}
type CorpUserInfo {
  active: Boolean!
  displayName: String
  email: String
  title: String
  manager: CorpUser
  departmentId: Long
  departmentName: String
  firstName: String
  lastName: String
  fullName: String
  countryCode: String
  customProperties: [CustomPropertiesEntry!]
}
type CorpGroupProperties { displayName: String description: String email: String slack: String }
type CorpGroupEditableProperties { description: String slack: String email: String }
type TagProperties { name: String! description: String colorHex: String }
type GlossaryTermProperties {
  name: String!
  description: String
  definition: String!
  termSource: String!
  sourceRef: String
  sourceUrl: String
  customProperties: [CustomPropertiesEntry!]
  rawSchema: String
}
type GlossaryNodeProperties { name: String! description: String customProperties: [CustomPropertiesEntry!] }
type ParentNodesResult { count: Int! nodes: [GlossaryNode!]! }
type GlossaryNodeChildrenCount { termsCount: Int! nodesCount: Int! }
type ContainerProperties {
  name: String!
  description: String
  externalUrl: String
  qualifiedName: String
  customProperties: [CustomPropertiesEntry!]
}
type DomainProperties { name: String! description: String }
enum PlatformType {
  FILE_SYSTEM
  KEY_VALUE_STORE
  MESSAGE_BROKER
  OBJECT_STORE
  OLAP_DATASTORE
  OTHERS
  QUERY_ENGINE
  RELATIONAL_DB
  SEARCH_ENGINE
}
type DataPlatformProperties {
  type: PlatformType!
  displayName: String
  datasetNameDelimiter: String!
  logoUrl: String
}

${[...named].sort().map(entityTypeSdl).join('\n\n')}

type Query {
  entity(urn: String!): Entity
  entities(urns: [String!]!): [Entity]
  entityExists(urn: String!): Boolean
  dataset(urn: String!): Dataset
  chart(urn: String!): Chart
  dashboard(urn: String!): Dashboard
  dataFlow(urn: String!): DataFlow
  dataJob(urn: String!): DataJob
  corpUser(urn: String!): CorpUser
  corpGroup(urn: String!): CorpGroup
  tag(urn: String!): Tag
  glossaryTerm(urn: String!): GlossaryTerm
  glossaryNode(urn: String!): GlossaryNode
  container(urn: String!): Container
  domain(urn: String!): Domain
  dataPlatform(urn: String!): DataPlatform
  structuredProperty(urn: String!): StructuredPropertyEntity
  schemaField(urn: String!): SchemaFieldEntity
  mlModel(urn: String!): MLModel
  mlModelGroup(urn: String!): MLModelGroup
  mlFeature(urn: String!): MLFeature
  mlFeatureTable(urn: String!): MLFeatureTable
  mlPrimaryKey(urn: String!): MLPrimaryKey
  dataProcessInstance(urn: String!): DataProcessInstance
  notebook(urn: String!): Notebook
  assertion(urn: String!): Assertion
  versionSet(urn: String!): VersionSet
}
`;
}

/** The getters of Query and the entity type each returns. */
export const TYPED_GETTERS: Readonly<Record<string, string>> = {
  dataset: 'dataset',
  chart: 'chart',
  dashboard: 'dashboard',
  dataFlow: 'dataFlow',
  dataJob: 'dataJob',
  corpUser: 'corpuser',
  corpGroup: 'corpGroup',
  tag: 'tag',
  glossaryTerm: 'glossaryTerm',
  glossaryNode: 'glossaryNode',
  container: 'container',
  domain: 'domain',
  dataPlatform: 'dataPlatform',
  structuredProperty: 'structuredProperty',
  schemaField: 'schemaField',
  mlModel: 'mlModel',
  mlModelGroup: 'mlModelGroup',
  mlFeature: 'mlFeature',
  mlFeatureTable: 'mlFeatureTable',
  mlPrimaryKey: 'mlPrimaryKey',
  dataProcessInstance: 'dataProcessInstance',
  notebook: 'notebook',
  assertion: 'assertion',
  versionSet: 'versionSet',
};
