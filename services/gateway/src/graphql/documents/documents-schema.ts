import { RESOLVABLE_TYPES } from '../entities/entity-types.js';

/** The ecosystem's entity types that list the documents related to them (`relatedDocuments`). */
export const TYPES_WITH_RELATED_DOCUMENTS: readonly string[] = [
  'Dataset',
  'GlossaryTerm',
  'GlossaryNode',
  'Container',
  'SchemaFieldEntity',
  'Dashboard',
  'Chart',
  'DataFlow',
  'DataJob',
  'MLModel',
  'MLModelGroup',
  'MLFeature',
  'MLPrimaryKey',
  'MLFeatureTable',
  'Domain',
  'DataProduct',
  'Application',
].filter((name) => RESOLVABLE_TYPES.some((t) => t.typeName === name));

/**
 * The documents (knowledge base) part of the schema, in the ecosystem's types and nullability
 * (documents.graphql): the Document's own fields beside the common entity ones, its queries and
 * mutations, and `relatedDocuments` on the asset types.
 */
export function documentsSchema(): string {
  return `
extend type Document {
  lastIngested: Long
  info: DocumentInfo
  settings: DocumentSettings
  subType: String
  platform: DataPlatform!
  changeHistory(startTimeMillis: Long, endTimeMillis: Long, limit: Int = 50): [DocumentChange!]!
  parentDocuments: ParentDocumentsResult
}

type DocumentInfo {
  title: String
  source: DocumentSource
  status: DocumentStatus
  contents: DocumentContent!
  created: ResolvedAuditStamp!
  lastModified: ResolvedAuditStamp!
  relatedAssets: [DocumentRelatedAsset!]
  relatedDocuments: [DocumentRelatedDocument!]
  parentDocument: DocumentParentDocument
  customProperties: [CustomPropertiesEntry!]
}
type DocumentContent { text: String! semanticText: String }
enum DocumentSourceType { NATIVE EXTERNAL }
type DocumentSource { sourceType: DocumentSourceType! externalUrl: String externalId: String }
type DocumentRelatedAsset { asset: Entity! }
type DocumentRelatedDocument { document: Document! }
type DocumentParentDocument { document: Document! }
type DocumentStatus { state: DocumentState! }
enum DocumentState { PUBLISHED UNPUBLISHED }
type DocumentSettings { showInGlobalContext: Boolean! }

input CreateDocumentInput {
  id: String
  subType: String
  title: String
  state: DocumentState
  contents: DocumentContentInput!
  owners: [OwnerInput!]
  parentDocument: String
  relatedAssets: [String!]
  relatedDocuments: [String!]
  settings: DocumentSettingsInput
}
input DocumentSettingsInput { showInGlobalContext: Boolean }
input UpdateDocumentSettingsInput { urn: String! showInGlobalContext: Boolean! }
input DocumentContentInput { text: String! }
input UpdateDocumentContentsInput { urn: String! title: String contents: DocumentContentInput subType: String }
input UpdateDocumentRelatedEntitiesInput { urn: String! relatedAssets: [String!] relatedDocuments: [String!] }
input MoveDocumentInput { urn: String! parentDocument: String }
input UpdateDocumentStatusInput { urn: String! state: DocumentState! }
input UpdateDocumentSubTypeInput { urn: String! subType: String }

input SearchDocumentsInput {
  start: Int
  count: Int
  query: String
  parentDocuments: [String!]
  rootOnly: Boolean
  types: [String!]
  domains: [String!]
  relatedAssets: [String!]
  sourceType: DocumentSourceType
  viewUrn: String
  tags: [String!]
  glossaryTerms: [String!]
  creators: [String!]
  platforms: [String!]
  states: [DocumentState!]
  sortInput: SearchSortInput
}
type SearchDocumentsResult {
  start: Int!
  count: Int!
  total: Int!
  documents: [Document!]!
  facets: [FacetMetadata!]
}
input RelatedDocumentsInput {
  start: Int
  count: Int
  parentDocuments: [String!]
  rootOnly: Boolean
  types: [String!]
  domains: [String!]
  sourceType: DocumentSourceType
}
type RelatedDocumentsResult {
  start: Int!
  count: Int!
  total: Int!
  documents: [Document!]!
  facets: [FacetMetadata!]
}

type DocumentChange {
  changeType: DocumentChangeType!
  description: String!
  actor: CorpUser
  timestamp: Long!
  details: [StringMapEntry!]
}
enum DocumentChangeType {
  CREATED
  TITLE_CHANGED
  TEXT_CHANGED
  PARENT_CHANGED
  RELATED_DOCUMENTS_CHANGED
  RELATED_ASSETS_CHANGED
  STATE_CHANGED
  DELETED
}
type ParentDocumentsResult { count: Int! documents: [Document!]! }

enum DocumentImportUseCase { CONTEXT_DOCUMENT SKILL }
type ImportDocumentsResult {
  createdCount: Int!
  updatedCount: Int!
  failedCount: Int!
  errors: [String!]!
  documentUrns: [String!]!
}
input ImportDocumentsFromFilesInput {
  documents: [DocumentFileInput!]!
  showInGlobalContext: Boolean
  useCase: DocumentImportUseCase
  parentDocumentUrn: String
}
input DocumentFileInput { fileName: String! content: String! }

extend type Query {
  document(urn: String!): Document
  searchDocuments(input: SearchDocumentsInput!): SearchDocumentsResult!
}

extend type Mutation {
  createDocument(input: CreateDocumentInput!): String!
  updateDocumentContents(input: UpdateDocumentContentsInput!): Boolean!
  updateDocumentRelatedEntities(input: UpdateDocumentRelatedEntitiesInput!): Boolean!
  moveDocument(input: MoveDocumentInput!): Boolean!
  deleteDocument(urn: String!): Boolean!
  updateDocumentStatus(input: UpdateDocumentStatusInput!): Boolean!
  updateDocumentSubType(input: UpdateDocumentSubTypeInput!): Boolean!
  updateDocumentSettings(input: UpdateDocumentSettingsInput!): Boolean!
  importDocumentsFromFiles(input: ImportDocumentsFromFilesInput!): ImportDocumentsResult!
}

${TYPES_WITH_RELATED_DOCUMENTS.map(
  (name) => `extend type ${name} { relatedDocuments(input: RelatedDocumentsInput!): RelatedDocumentsResult }`,
).join('\n')}
`;
}
