import { entityRegistry, ValidationError } from '@catalog/model';

/**
 * The ecosystem's GraphQL `EntityType` values, the registry entity each stands for, and the GraphQL
 * object type an entity of it resolves to (`__typename`). Values without a registry entity here
 * (RESTRICTED, OTHER, and those our pinned registry lacks) are in the enum but never resolve.
 */
export const ENTITY_TYPES: readonly {
  readonly value: string;
  readonly entity: string;
  readonly typeName: string;
}[] = [
  { value: 'DOMAIN', entity: 'domain', typeName: 'Domain' },
  { value: 'DATASET', entity: 'dataset', typeName: 'Dataset' },
  { value: 'CORP_USER', entity: 'corpuser', typeName: 'CorpUser' },
  { value: 'CORP_GROUP', entity: 'corpGroup', typeName: 'CorpGroup' },
  { value: 'DATA_PLATFORM', entity: 'dataPlatform', typeName: 'DataPlatform' },
  { value: 'ER_MODEL_RELATIONSHIP', entity: 'erModelRelationship', typeName: 'ERModelRelationship' },
  { value: 'DASHBOARD', entity: 'dashboard', typeName: 'Dashboard' },
  { value: 'NOTEBOOK', entity: 'notebook', typeName: 'Notebook' },
  { value: 'CHART', entity: 'chart', typeName: 'Chart' },
  { value: 'DATA_FLOW', entity: 'dataFlow', typeName: 'DataFlow' },
  { value: 'DATA_JOB', entity: 'dataJob', typeName: 'DataJob' },
  { value: 'TAG', entity: 'tag', typeName: 'Tag' },
  { value: 'GLOSSARY_TERM', entity: 'glossaryTerm', typeName: 'GlossaryTerm' },
  { value: 'GLOSSARY_NODE', entity: 'glossaryNode', typeName: 'GlossaryNode' },
  { value: 'CONTAINER', entity: 'container', typeName: 'Container' },
  { value: 'MLMODEL', entity: 'mlModel', typeName: 'MLModel' },
  { value: 'MLMODEL_GROUP', entity: 'mlModelGroup', typeName: 'MLModelGroup' },
  { value: 'MLFEATURE_TABLE', entity: 'mlFeatureTable', typeName: 'MLFeatureTable' },
  { value: 'MLFEATURE', entity: 'mlFeature', typeName: 'MLFeature' },
  { value: 'MLPRIMARY_KEY', entity: 'mlPrimaryKey', typeName: 'MLPrimaryKey' },
  { value: 'INGESTION_SOURCE', entity: 'dataHubIngestionSource', typeName: 'IngestionSource' },
  { value: 'EXECUTION_REQUEST', entity: 'dataHubExecutionRequest', typeName: 'ExecutionRequest' },
  { value: 'ASSERTION', entity: 'assertion', typeName: 'Assertion' },
  { value: 'DATA_PROCESS_INSTANCE', entity: 'dataProcessInstance', typeName: 'DataProcessInstance' },
  { value: 'DATA_PLATFORM_INSTANCE', entity: 'dataPlatformInstance', typeName: 'DataPlatformInstance' },
  { value: 'ACCESS_TOKEN', entity: 'dataHubAccessToken', typeName: 'AccessTokenMetadata' },
  { value: 'TEST', entity: 'test', typeName: 'Test' },
  { value: 'DATAHUB_POLICY', entity: 'dataHubPolicy', typeName: 'DataHubPolicy' },
  { value: 'DATAHUB_ROLE', entity: 'dataHubRole', typeName: 'DataHubRole' },
  { value: 'POST', entity: 'post', typeName: 'Post' },
  { value: 'SCHEMA_FIELD', entity: 'schemaField', typeName: 'SchemaFieldEntity' },
  { value: 'DATAHUB_VIEW', entity: 'dataHubView', typeName: 'DataHubView' },
  { value: 'QUERY', entity: 'query', typeName: 'QueryEntity' },
  { value: 'DATA_PRODUCT', entity: 'dataProduct', typeName: 'DataProduct' },
  { value: 'CUSTOM_OWNERSHIP_TYPE', entity: 'ownershipType', typeName: 'OwnershipTypeEntity' },
  { value: 'DATAHUB_CONNECTION', entity: 'dataHubConnection', typeName: 'DataHubConnection' },
  { value: 'INCIDENT', entity: 'incident', typeName: 'Incident' },
  { value: 'ROLE', entity: 'role', typeName: 'Role' },
  { value: 'DATA_CONTRACT', entity: 'dataContract', typeName: 'DataContract' },
  { value: 'STRUCTURED_PROPERTY', entity: 'structuredProperty', typeName: 'StructuredPropertyEntity' },
  { value: 'FORM', entity: 'form', typeName: 'Form' },
  { value: 'DATA_TYPE', entity: 'dataType', typeName: 'DataTypeEntity' },
  { value: 'ENTITY_TYPE', entity: 'entityType', typeName: 'EntityTypeEntity' },
  { value: 'BUSINESS_ATTRIBUTE', entity: 'businessAttribute', typeName: 'BusinessAttribute' },
  { value: 'DOCUMENT', entity: 'document', typeName: 'Document' },
  { value: 'VERSION_SET', entity: 'versionSet', typeName: 'VersionSet' },
  { value: 'RESTRICTED', entity: '', typeName: 'Restricted' },
  { value: 'OTHER', entity: '', typeName: '' },
];

const byValue = new Map(ENTITY_TYPES.map((t) => [t.value, t]));
const byEntity = new Map(ENTITY_TYPES.filter((t) => t.entity !== '').map((t) => [t.entity, t]));

/** The types that resolve: the ones whose registry entity exists in the pinned registry. */
export const RESOLVABLE_TYPES = ENTITY_TYPES.filter(
  (t) => t.entity !== '' && entityRegistry.getEntity(t.entity) !== undefined,
);

/** The types searched when a query names none (the ecosystem's SEARCHABLE_ENTITY_TYPES). */
export const DEFAULT_SEARCH_TYPES: readonly string[] = [
  'DATASET',
  'DASHBOARD',
  'CHART',
  'MLMODEL',
  'MLMODEL_GROUP',
  'MLFEATURE_TABLE',
  'MLFEATURE',
  'MLPRIMARY_KEY',
  'DATA_FLOW',
  'DATA_JOB',
  'GLOSSARY_TERM',
  'GLOSSARY_NODE',
  'TAG',
  'CORP_USER',
  'CORP_GROUP',
  'CONTAINER',
  'DOMAIN',
  'DATA_PRODUCT',
  'NOTEBOOK',
  'BUSINESS_ATTRIBUTE',
  'SCHEMA_FIELD',
].filter((value) => RESOLVABLE_TYPES.some((t) => t.value === value));

/** The registry entity of an EntityType value; a 400 naming it when it has none. */
export function entityOfType(value: string): string {
  const type = byValue.get(value);
  if (type === undefined || type.entity === '' || entityRegistry.getEntity(type.entity) === undefined)
    throw new ValidationError(`Unknown entity type: ${value}`);
  return type.entity;
}

/** The EntityType value of a registry entity; OTHER when the enum has none. */
export function typeOfEntity(entity: string): string {
  return byEntity.get(entity)?.value ?? 'OTHER';
}

/** The GraphQL object type of a registry entity, for `__typename`. */
export function typeNameOfEntity(entity: string): string | undefined {
  const name = byEntity.get(entity)?.typeName;
  return name === undefined || name === '' ? undefined : name;
}
