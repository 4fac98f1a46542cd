import { describe, expect, it } from 'vitest';
import { entityRegistry } from './registry/entity-registry.js';
import { validateAspect } from './validate.js';

/**
 * Aspect values in the shape the ecosystem's Python SDK serializes them: nulls dropped, unions keyed by
 * `com.linkedin.*` record names or primitive names. Every one must validate unchanged in substance.
 */
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)';
const UPSTREAM = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const STAMP = { time: 1640995200000, actor: 'urn:li:corpuser:datahub' };

const PAYLOADS: ReadonlyArray<readonly [entity: string, aspect: string, value: Record<string, unknown>]> = [
  [
    'dataset',
    'datasetProperties',
    {
      customProperties: { owner_team: 'growth', 'retention.days': '30' },
      externalUrl: 'https://example.com/tables/logging_events',
      name: 'logging_events',
      qualifiedName: 'hive.default.logging_events',
      description: 'Events logged by the web tier',
      created: { time: 1640995200000 },
      lastModified: { time: 1641081600000, actor: 'urn:li:corpuser:etl' },
      tags: [],
    },
  ],
  [
    'dataset',
    'schemaMetadata',
    {
      schemaName: 'logging_events',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      created: STAMP,
      lastModified: STAMP,
      hash: '',
      platformSchema: {
        'com.linkedin.schema.OtherSchema': { rawSchema: 'CREATE TABLE logging_events (...)' },
      },
      fields: [
        {
          fieldPath: 'event_id',
          nullable: false,
          description: 'primary key',
          type: { type: { 'com.linkedin.schema.StringType': {} } },
          nativeDataType: 'VARCHAR(36)',
          recursive: false,
          isPartOfKey: true,
        },
        {
          fieldPath: 'ts',
          nullable: true,
          type: { type: { 'com.linkedin.schema.DateType': {} } },
          nativeDataType: 'TIMESTAMP',
          recursive: false,
          globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
          glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:EventTime' }], auditStamp: STAMP },
          isPartOfKey: false,
        },
        {
          fieldPath: 'amount',
          type: { type: { 'com.linkedin.schema.NumberType': {} } },
          nativeDataType: 'DECIMAL(10,2)',
        },
        {
          fieldPath: 'attrs',
          type: { type: { 'com.linkedin.schema.MapType': { keyType: 'string', valueType: 'string' } } },
          nativeDataType: 'map<string,string>',
        },
        {
          fieldPath: 'labels',
          type: { type: { 'com.linkedin.schema.ArrayType': { nestedType: ['string'] } } },
          nativeDataType: 'array<string>',
        },
        {
          fieldPath: 'payload',
          type: { type: { 'com.linkedin.schema.RecordType': {} } },
          nativeDataType: 'struct<a:int>',
          jsonPath: '$.payload',
          label: 'Payload',
        },
        {
          fieldPath: 'flag',
          type: { type: { 'com.linkedin.schema.BooleanType': {} } },
          nativeDataType: 'boolean',
        },
      ],
      primaryKeys: ['event_id'],
    },
  ],
  [
    'dataset',
    'schemaMetadata',
    {
      schemaName: 'topic',
      platform: 'urn:li:dataPlatform:kafka',
      version: 3,
      hash: 'abc',
      platformSchema: {
        'com.linkedin.schema.KafkaSchema': {
          documentSchema: '{"type":"record"}',
          documentSchemaType: 'AVRO',
        },
      },
      fields: [],
    },
  ],
  [
    'dataset',
    'ownership',
    {
      owners: [
        { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' },
        {
          owner: 'urn:li:corpGroup:analytics',
          type: 'TECHNICAL_OWNER',
          source: { type: 'SERVICE', url: 'x' },
        },
        {
          owner: 'urn:li:corpuser:sam',
          type: 'CUSTOM',
          typeUrn: 'urn:li:ownershipType:steward',
        },
      ],
      ownerTypes: {},
      lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
    },
  ],
  [
    'dataset',
    'globalTags',
    { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:Legacy', context: 'ui' }] },
  ],
  [
    'dataset',
    'upstreamLineage',
    {
      upstreams: [
        { auditStamp: STAMP, dataset: UPSTREAM, type: 'TRANSFORMED' },
        {
          auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' },
          dataset: DATASET.replace('logging', 'raw'),
          type: 'COPY',
        },
      ],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [`urn:li:schemaField:(${UPSTREAM},user_id)`],
          downstreamType: 'FIELD',
          downstreams: [`urn:li:schemaField:(${DATASET},user_id)`],
          confidenceScore: 1.0,
        },
      ],
    },
  ],
  [
    'dataset',
    'editableSchemaMetadata',
    {
      created: STAMP,
      lastModified: STAMP,
      editableSchemaFieldInfo: [{ fieldPath: 'ts', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }],
    },
  ],
  [
    'dataset',
    'browsePathsV2',
    { path: [{ id: 'prod' }, { id: 'urn:li:container:abc', urn: 'urn:li:container:abc' }] },
  ],
  ['dataset', 'browsePaths', { paths: ['/prod/hive/default'] }],
  [
    'dataset',
    'institutionalMemory',
    { elements: [{ url: 'https://wiki/x', description: 'Runbook', createStamp: STAMP }] },
  ],
  ['dataset', 'subTypes', { typeNames: ['Table'] }],
  ['dataset', 'container', { container: 'urn:li:container:abc' }],
  ['dataset', 'domains', { domains: ['urn:li:domain:marketing'] }],
  [
    'chart',
    'chartInfo',
    {
      customProperties: {},
      title: 'Baz Chart 1',
      description: 'Baz Chart 1',
      lastModified: { created: STAMP, lastModified: STAMP },
      inputs: [{ string: DATASET }, { string: UPSTREAM }],
      type: 'BAR',
    },
  ],
  [
    'dashboard',
    'dashboardInfo',
    {
      customProperties: {},
      title: 'Baz Dashboard',
      description: 'Baz Dashboard',
      charts: ['urn:li:chart:(looker,baz1)', 'urn:li:chart:(looker,baz2)'],
      datasets: [],
      lastModified: { created: STAMP, lastModified: STAMP },
    },
  ],
  [
    'dataset',
    'datasetProfile',
    {
      timestampMillis: 1700000000000,
      partitionSpec: { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' },
      rowCount: 1000,
      columnCount: 3,
      fieldProfiles: [
        {
          fieldPath: 'amount',
          uniqueCount: 900,
          uniqueProportion: 0.9,
          nullCount: 0,
          nullProportion: 0.0,
          min: '0.5',
          max: '99.5',
          mean: '50.1',
          median: '49.9',
          stdev: '10.2',
          sampleValues: ['1.0', '2.5'],
          distinctValueFrequencies: [{ value: '1.0', frequency: 20 }],
          quantiles: [{ quantile: '0.5', value: '49.9' }],
          histogram: { boundaries: ['0', '50', '100'], heights: [0.4, 0.6] },
        },
      ],
    },
  ],
  [
    'dataset',
    'datasetUsageStatistics',
    {
      timestampMillis: 1700000000000,
      eventGranularity: { unit: 'DAY', multiple: 1 },
      uniqueUserCount: 2,
      totalSqlQueries: 10,
      userCounts: [{ user: 'urn:li:corpuser:jdoe', count: 7, userEmail: 'jdoe@example.com' }],
      fieldCounts: [{ fieldPath: 'amount', count: 4 }],
    },
  ],
  [
    'dataset',
    'operation',
    {
      timestampMillis: 1700000000000,
      operationType: 'INSERT',
      lastUpdatedTimestamp: 1699999999000,
      actor: 'urn:li:corpuser:etl',
      numAffectedRows: 42,
    },
  ],
  [
    'dataset',
    'structuredProperties',
    {
      properties: [
        { propertyUrn: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime', values: [{ double: 90 }] },
        {
          propertyUrn: 'urn:li:structuredProperty:io.acryl.dataManagement.steward',
          values: [{ string: 'urn:li:corpuser:x' }],
        },
      ],
    },
  ],
  [
    'structuredProperty',
    'propertyDefinition',
    {
      qualifiedName: 'io.acryl.privacy.retentionTime',
      displayName: 'Retention Time',
      valueType: 'urn:li:dataType:datahub.number',
      allowedValues: [{ value: { double: 30 }, description: '30 days' }, { value: { double: 90 } }],
      cardinality: 'MULTIPLE',
      entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.dataFlow'],
      description: 'Retention time for the dataset',
      immutable: false,
    },
  ],
  [
    'dataJob',
    'dataJobInfo',
    { customProperties: {}, name: 'task_123', description: 'does things', type: { string: 'COMMAND' } },
  ],
  [
    'dataJob',
    'dataJobInfo',
    { name: 'legacy', type: { 'com.linkedin.datajob.azkaban.AzkabanJobType': 'SQL' }, status: 'COMPLETED' },
  ],
  [
    'dataJob',
    'dataJobInputOutput',
    {
      inputDatasets: [UPSTREAM],
      outputDatasets: [DATASET],
      inputDatajobs: ['urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),t0)'],
    },
  ],
  ['dataFlow', 'dataFlowInfo', { customProperties: {}, name: 'dag_abc', project: 'growth' }],
  [
    'corpuser',
    'corpUserInfo',
    { active: true, displayName: 'John Doe', email: 'jdoe@example.com', fullName: 'John Doe' },
  ],
  ['corpuser', 'groupMembership', { groups: ['urn:li:corpGroup:bfoo'] }],
  [
    'corpGroup',
    'corpGroupInfo',
    {
      displayName: 'B Foo',
      email: 'bfoo@example.com',
      admins: ['urn:li:corpuser:jdoe'],
      members: [],
      groups: [],
    },
  ],
  ['tag', 'tagProperties', { name: 'pii', description: 'Personal data' }],
  [
    'glossaryTerm',
    'glossaryTermInfo',
    {
      definition: 'Money we make',
      customProperties: {},
      termSource: 'EXTERNAL',
      sourceRef: 'FIBO',
      sourceUrl: 'https://spec.edmcouncil.org/fibo/',
    },
  ],
  [
    'dataHubPolicy',
    'dataHubPolicyInfo',
    {
      displayName: 'All users view',
      description: 'Every user may view every dataset',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: ['VIEW_ENTITY_PAGE'],
      actors: { allUsers: true },
      resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'] }] } },
    },
  ],
];

describe('validateAspect on payloads as the SDK sends them', () => {
  it.each(
    PAYLOADS.map(
      ([entity, aspect, value], i) => [`${i}: ${entity}.${aspect}`, entity, aspect, value] as const,
    ),
  )('%s validates, keeping every field the client sent', (_label, entity, aspect, value) => {
    const spec = entityRegistry.getAspect(entity, aspect);
    expect(spec, `${entity}.${aspect}`).toBeDefined();
    if (!spec) return;
    const outcome = validateAspect(spec, value);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
    expect(outcome.value).toMatchObject(value);
  });
});
