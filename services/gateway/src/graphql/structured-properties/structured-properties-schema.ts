/**
 * Structured properties in the ecosystem's GraphQL shapes (properties.graphql, the value inputs of
 * forms.graphql): the definition an entity of type STRUCTURED_PROPERTY carries, the values other
 * entities carry (`structuredProperties` on every entity type), and the mutations that write both.
 */
export const structuredPropertySchema = `
enum PropertyCardinality { SINGLE MULTIPLE }
enum StdDataType { STRING NUMBER URN RICH_TEXT DATE OTHER }
enum StructuredPropertyFilterStatus { ENABLED DISABLED }

type StringValue { stringValue: String! }
type NumberValue { numberValue: Float! }
union PropertyValue = StringValue | NumberValue

type ResolvedAuditStamp { time: Long! actor: CorpUser }
type AllowedValue { value: PropertyValue! description: String }
type TypeQualifier { allowedTypes: [EntityTypeEntity!] }
type DataTypeInfo { type: StdDataType! qualifiedName: String! displayName: String description: String }
type EntityTypeInfo { type: EntityType! qualifiedName: String! displayName: String description: String }

type StructuredPropertyDefinition {
  qualifiedName: String!
  displayName: String
  description: String
  cardinality: PropertyCardinality
  allowedValues: [AllowedValue!]
  valueType: DataTypeEntity!
  typeQualifier: TypeQualifier
  entityTypes: [EntityTypeEntity!]!
  immutable: Boolean!
  created: ResolvedAuditStamp
  lastModified: ResolvedAuditStamp
  filterStatus: StructuredPropertyFilterStatus!
    @deprecated(reason: "Use structuredPropertySettings.showInSearchFilters instead")
}

type StructuredPropertySettings {
  isHidden: Boolean!
  showInSearchFilters: Boolean!
  showInAssetSummary: Boolean!
  hideInAssetSummaryWhenEmpty: Boolean!
  showAsAssetBadge: Boolean!
  showInColumnsTable: Boolean!
}

type StructuredPropertiesEntry {
  structuredProperty: StructuredPropertyEntity!
  values: [PropertyValue]!
  valueEntities: [Entity]
  associatedUrn: String!
}
type StructuredProperties { properties: [StructuredPropertiesEntry!] }

input TypeQualifierInput { allowedTypes: [String!] }
input UpdateTypeQualifierInput { newAllowedTypes: [String!] }
input AllowedValueInput { stringValue: String numberValue: Float description: String }
input StructuredPropertySettingsInput {
  isHidden: Boolean
  showInSearchFilters: Boolean
  showInAssetSummary: Boolean
  hideInAssetSummaryWhenEmpty: Boolean
  showAsAssetBadge: Boolean
  showInColumnsTable: Boolean
}
input CreateStructuredPropertyInput {
  id: String
  qualifiedName: String
  displayName: String
  description: String
  immutable: Boolean
  valueType: String!
  typeQualifier: TypeQualifierInput
  allowedValues: [AllowedValueInput!]
  cardinality: PropertyCardinality
  entityTypes: [String!]!
  settings: StructuredPropertySettingsInput
  filterStatus: StructuredPropertyFilterStatus
}
input UpdateStructuredPropertyInput {
  urn: String!
  displayName: String
  description: String
  immutable: Boolean
  typeQualifier: UpdateTypeQualifierInput
  newAllowedValues: [AllowedValueInput!]
  setCardinalityAsMultiple: Boolean
  newEntityTypes: [String!]
  settings: StructuredPropertySettingsInput
  filterStatus: StructuredPropertyFilterStatus
}
input DeleteStructuredPropertyInput { urn: String! }
input PropertyValueInput { stringValue: String numberValue: Float }
input StructuredPropertyInputParams { structuredPropertyUrn: String! values: [PropertyValueInput!]! }
input UpsertStructuredPropertiesInput {
  assetUrn: String!
  structuredPropertyInputParams: [StructuredPropertyInputParams!]!
}
input RemoveStructuredPropertiesInput { assetUrn: String! structuredPropertyUrns: [String!]! }

extend type Mutation {
  upsertStructuredProperties(input: UpsertStructuredPropertiesInput!): StructuredProperties!
  removeStructuredProperties(input: RemoveStructuredPropertiesInput!): StructuredProperties!
  createStructuredProperty(input: CreateStructuredPropertyInput!): StructuredPropertyEntity!
  updateStructuredProperty(input: UpdateStructuredPropertyInput!): StructuredPropertyEntity!
  deleteStructuredProperty(input: DeleteStructuredPropertyInput!): Boolean!
}
`;

/** The fields of the entity types this slice reads, beyond the fields every entity type has. */
export const STRUCTURED_PROPERTY_ENTITY_FIELDS: Readonly<Record<string, string>> = {
  StructuredPropertyEntity: `
  definition: StructuredPropertyDefinition!
  settings: StructuredPropertySettings`,
  DataTypeEntity: `
  info: DataTypeInfo!`,
  EntityTypeEntity: `
  info: EntityTypeInfo!`,
};
