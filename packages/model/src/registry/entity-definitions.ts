/** An entity as data: its key aspect, the other aspects it may carry, and its legacy snapshot record. */
export interface EntityDefinition {
  readonly name: string;
  readonly keyAspect: string;
  readonly aspects: readonly string[];
  readonly searchable?: boolean;
  readonly snapshotName?: string;
}

const SNAPSHOT = 'com.linkedin.metadata.snapshot';

/** Aspects that every data asset (dataset, chart, dashboard, flow, job, container) carries. */
const ASSET_ASPECTS = [
  'ownership',
  'globalTags',
  'glossaryTerms',
  'status',
  'institutionalMemory',
  'browsePaths',
  'browsePathsV2',
  'structuredProperties',
  'domains',
  'deprecation',
  'subTypes',
  'container',
  'dataPlatformInstance',
  'testResults',
] as const;

/**
 * The entities of the registry, with the ecosystem's names (entity-registry.yml). The order of aspects
 * does not matter; the key aspect is listed separately and also belongs to the entity's aspects.
 */
export const ENTITY_DEFINITIONS: readonly EntityDefinition[] = [
  {
    name: 'dataset',
    keyAspect: 'datasetKey',
    snapshotName: `${SNAPSHOT}.DatasetSnapshot`,
    aspects: [
      ...ASSET_ASPECTS,
      'datasetProperties',
      'editableDatasetProperties',
      'schemaMetadata',
      'editableSchemaMetadata',
      'upstreamLineage',
      'datasetProfile',
      'datasetUsageStatistics',
      'operation',
    ],
  },
  {
    name: 'chart',
    keyAspect: 'chartKey',
    snapshotName: `${SNAPSHOT}.ChartSnapshot`,
    aspects: [...ASSET_ASPECTS, 'chartInfo', 'chartQuery', 'editableChartProperties', 'chartUsageStatistics'],
  },
  {
    name: 'dashboard',
    keyAspect: 'dashboardKey',
    snapshotName: `${SNAPSHOT}.DashboardSnapshot`,
    aspects: [...ASSET_ASPECTS, 'dashboardInfo', 'editableDashboardProperties', 'dashboardUsageStatistics'],
  },
  {
    name: 'corpuser',
    keyAspect: 'corpUserKey',
    snapshotName: `${SNAPSHOT}.CorpUserSnapshot`,
    aspects: [
      'corpUserInfo',
      'corpUserEditableInfo',
      'groupMembership',
      'nativeGroupMembership',
      'globalTags',
      'status',
      'structuredProperties',
    ],
  },
  {
    name: 'corpGroup',
    keyAspect: 'corpGroupKey',
    snapshotName: `${SNAPSHOT}.CorpGroupSnapshot`,
    aspects: [
      'corpGroupInfo',
      'corpGroupEditableInfo',
      'globalTags',
      'ownership',
      'status',
      'structuredProperties',
    ],
  },
  {
    name: 'tag',
    keyAspect: 'tagKey',
    snapshotName: `${SNAPSHOT}.TagSnapshot`,
    aspects: ['tagProperties', 'ownership', 'deprecation', 'status', 'structuredProperties'],
  },
  {
    name: 'glossaryTerm',
    keyAspect: 'glossaryTermKey',
    snapshotName: `${SNAPSHOT}.GlossaryTermSnapshot`,
    aspects: [
      'glossaryTermInfo',
      'glossaryRelatedTerms',
      'institutionalMemory',
      'schemaMetadata',
      'ownership',
      'deprecation',
      'domains',
      'status',
      'browsePaths',
      'structuredProperties',
    ],
  },
  {
    name: 'glossaryNode',
    keyAspect: 'glossaryNodeKey',
    snapshotName: `${SNAPSHOT}.GlossaryNodeSnapshot`,
    aspects: ['glossaryNodeInfo', 'ownership', 'status', 'structuredProperties', 'institutionalMemory'],
  },
  {
    name: 'dataFlow',
    keyAspect: 'dataFlowKey',
    snapshotName: `${SNAPSHOT}.DataFlowSnapshot`,
    aspects: [...ASSET_ASPECTS, 'dataFlowInfo'],
  },
  {
    name: 'dataJob',
    keyAspect: 'dataJobKey',
    snapshotName: `${SNAPSHOT}.DataJobSnapshot`,
    aspects: [...ASSET_ASPECTS, 'dataJobInfo', 'dataJobInputOutput'],
  },
  {
    name: 'schemaField',
    keyAspect: 'schemaFieldKey',
    aspects: ['structuredProperties', 'status', 'globalTags', 'glossaryTerms', 'deprecation', 'subTypes'],
  },
  {
    name: 'structuredProperty',
    keyAspect: 'structuredPropertyKey',
    aspects: ['propertyDefinition', 'structuredPropertySettings', 'institutionalMemory', 'status'],
  },
  {
    name: 'dataPlatform',
    keyAspect: 'dataPlatformKey',
    snapshotName: `${SNAPSHOT}.DataPlatformSnapshot`,
    aspects: ['dataPlatformInfo'],
  },
  { name: 'test', keyAspect: 'testKey', aspects: ['testInfo'] },
  { name: 'dataHubPolicy', keyAspect: 'dataHubPolicyKey', aspects: ['dataHubPolicyInfo'] },
  // Indexed like the others: the ecosystem lists a user's tokens through a filtered search.
  { name: 'dataHubAccessToken', keyAspect: 'dataHubAccessTokenKey', aspects: ['dataHubAccessTokenInfo'] },
  {
    name: 'dataHubIngestionSource',
    keyAspect: 'dataHubIngestionSourceKey',
    aspects: ['dataHubIngestionSourceInfo'],
  },
  {
    name: 'container',
    keyAspect: 'containerKey',
    aspects: [
      ...ASSET_ASPECTS.filter((a) => a !== 'testResults'),
      'containerProperties',
      'editableContainerProperties',
    ],
  },
  {
    name: 'domain',
    keyAspect: 'domainKey',
    aspects: ['domainProperties', 'institutionalMemory', 'ownership', 'structuredProperties'],
  },
  { name: 'dataType', keyAspect: 'dataTypeKey', aspects: ['dataTypeInfo'] },
  { name: 'entityType', keyAspect: 'entityTypeKey', aspects: ['entityTypeInfo'] },
];
