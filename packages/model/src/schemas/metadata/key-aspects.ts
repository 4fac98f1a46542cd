import { aspect, opt, record, req, URN, urnOf, type AspectDefinition } from '../avro-schema.js';

/**
 * Key aspects (`com.linkedin.metadata.key`): the fields, in order, are the parts of the entity's URN id,
 * so the registry derives one from the other.
 */
export const KEY_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'datasetKey',
    schema: record('com.linkedin.metadata.key.DatasetKey', [
      req('platform', urnOf('dataPlatform')),
      req('name', 'string'),
      req('origin', 'com.linkedin.common.FabricType'),
    ]),
    searchable: [
      {
        fieldName: 'platform',
        path: 'platform',
        type: 'URN',
        addToFilters: true,
        filterName: 'Platform',
        queryByDefault: false,
      },
      { fieldName: 'id', path: 'name', type: 'WORD_GRAM', boost: 10, enableAutocomplete: true },
      {
        fieldName: 'origin',
        path: 'origin',
        type: 'KEYWORD',
        addToFilters: true,
        filterName: 'Environment',
        queryByDefault: false,
      },
    ],
  }),
  aspect({
    name: 'chartKey',
    schema: record('com.linkedin.metadata.key.ChartKey', [
      req('dashboardTool', 'string'),
      req('chartId', 'string'),
    ]),
    searchable: [
      {
        fieldName: 'tool',
        path: 'dashboardTool',
        type: 'URN_PARTIAL',
        boost: 4,
        addToFilters: true,
        filterName: 'Tool',
      },
      { fieldName: 'chartId', path: 'chartId', type: 'TEXT_PARTIAL', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'dashboardKey',
    schema: record('com.linkedin.metadata.key.DashboardKey', [
      req('dashboardTool', 'string'),
      req('dashboardId', 'string'),
    ]),
    searchable: [
      {
        fieldName: 'tool',
        path: 'dashboardTool',
        type: 'URN_PARTIAL',
        boost: 4,
        addToFilters: true,
        filterName: 'Tool',
      },
      { fieldName: 'dashboardId', path: 'dashboardId', type: 'TEXT_PARTIAL', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'corpUserKey',
    schema: record('com.linkedin.metadata.key.CorpUserKey', [req('username', 'string')]),
    searchable: [
      { fieldName: 'ldap', path: 'username', type: 'WORD_GRAM', boost: 2, enableAutocomplete: true },
    ],
  }),
  aspect({
    name: 'corpGroupKey',
    schema: record('com.linkedin.metadata.key.CorpGroupKey', [req('name', 'string')]),
    searchable: [
      { fieldName: 'name', path: 'name', type: 'TEXT_PARTIAL', boost: 10, enableAutocomplete: true },
    ],
  }),
  aspect({
    name: 'tagKey',
    schema: record('com.linkedin.metadata.key.TagKey', [req('name', 'string')]),
    searchable: [{ fieldName: 'name', path: 'name', type: 'WORD_GRAM', boost: 10, enableAutocomplete: true }],
  }),
  aspect({
    name: 'glossaryTermKey',
    schema: record('com.linkedin.metadata.key.GlossaryTermKey', [req('name', 'string')]),
    searchable: [{ fieldName: 'id', path: 'name', type: 'WORD_GRAM', enableAutocomplete: true }],
  }),
  aspect({
    name: 'glossaryNodeKey',
    schema: record('com.linkedin.metadata.key.GlossaryNodeKey', [req('name', 'string')]),
    searchable: [{ fieldName: 'id', path: 'name', type: 'WORD_GRAM', enableAutocomplete: true }],
  }),
  aspect({
    name: 'dataFlowKey',
    schema: record('com.linkedin.metadata.key.DataFlowKey', [
      req('orchestrator', 'string'),
      req('flowId', 'string'),
      req('cluster', 'string'),
    ]),
    searchable: [
      { fieldName: 'orchestrator', path: 'orchestrator', type: 'TEXT_PARTIAL' },
      { fieldName: 'id', path: 'flowId', type: 'WORD_GRAM', enableAutocomplete: true },
      { fieldName: 'cluster', path: 'cluster', type: 'TEXT_PARTIAL', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'dataJobKey',
    schema: record('com.linkedin.metadata.key.DataJobKey', [
      req('flow', urnOf('dataFlow')),
      req('jobId', 'string'),
    ]),
    searchable: [
      { fieldName: 'dataFlow', path: 'flow', type: 'URN_PARTIAL', queryByDefault: false },
      { fieldName: 'id', path: 'jobId', type: 'WORD_GRAM', enableAutocomplete: true },
    ],
    relationships: [{ name: 'IsPartOf', path: 'flow', entityTypes: ['dataFlow'] }],
  }),
  aspect({
    name: 'schemaFieldKey',
    schema: record('com.linkedin.metadata.key.SchemaFieldKey', [
      req('parent', URN),
      req('fieldPath', 'string'),
    ]),
    searchable: [
      { fieldName: 'parent', path: 'parent', type: 'URN', queryByDefault: false },
      { fieldName: 'fieldPath', path: 'fieldPath', type: 'KEYWORD' },
    ],
  }),
  idKey('structuredPropertyKey', 'com.linkedin.metadata.key.StructuredPropertyKey'),
  aspect({
    name: 'dataPlatformKey',
    schema: record('com.linkedin.metadata.key.DataPlatformKey', [req('platformName', 'string')]),
  }),
  idKey('testKey', 'com.linkedin.metadata.key.TestKey'),
  idKey('dataHubPolicyKey', 'com.linkedin.metadata.key.DataHubPolicyKey'),
  idKey('dataHubAccessTokenKey', 'com.linkedin.metadata.key.DataHubAccessTokenKey'),
  idKey('dataHubIngestionSourceKey', 'com.linkedin.metadata.key.DataHubIngestionSourceKey'),
  aspect({
    name: 'containerKey',
    // Optional in the ecosystem's schema; the URN always carries it.
    schema: record('com.linkedin.metadata.key.ContainerKey', [opt('guid', 'string')]),
  }),
  idKey('domainKey', 'com.linkedin.metadata.key.DomainKey'),
  idKey('dataTypeKey', 'com.linkedin.metadata.key.DataTypeKey'),
  idKey('entityTypeKey', 'com.linkedin.metadata.key.EntityTypeKey'),
];

function idKey(name: string, recordName: string): AspectDefinition {
  return { name, schema: record(recordName, [req('id', 'string')]) };
}
