import {
  arrayOf,
  aspect,
  enumOf,
  mapOf,
  opt,
  record,
  req,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

const TEST_RESULT = record('com.linkedin.test.TestResult', [
  req('test', URN),
  req('type', enumOf('com.linkedin.test.TestResultType', ['SUCCESS', 'FAILURE'])),
  opt('testDefinitionMd5', 'string'),
  opt('lastComputed', 'com.linkedin.common.AuditStamp'),
]);

/**
 * Aspects of the catalog's own entities: data platforms, metadata tests, policies, access tokens and
 * ingestion sources (namespaces dataplatform, test, policy, access.token, ingestion).
 */
export const PLATFORM_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'dataPlatformInfo',
    schema: record('com.linkedin.dataplatform.DataPlatformInfo', [
      req('name', 'string'),
      opt('displayName', 'string'),
      req(
        'type',
        enumOf('com.linkedin.dataplatform.PlatformType', [
          'FILE_SYSTEM',
          'KEY_VALUE_STORE',
          'MESSAGE_BROKER',
          'OBJECT_STORE',
          'OLAP_DATASTORE',
          'OTHERS',
          'QUERY_ENGINE',
          'RELATIONAL_DB',
          'SEARCH_ENGINE',
        ]),
      ),
      req('datasetNameDelimiter', 'string'),
      opt('logoUrl', 'string'),
    ]),
    searchable: [
      { fieldName: 'name', path: 'name', type: 'TEXT_PARTIAL', boost: 10, enableAutocomplete: true },
      { fieldName: 'displayName', path: 'displayName', type: 'TEXT_PARTIAL', enableAutocomplete: true },
    ],
  }),
  aspect({
    name: 'testInfo',
    schema: record('com.linkedin.test.TestInfo', [
      req('name', 'string'),
      req('category', 'string'),
      opt('description', 'string'),
      req(
        'definition',
        record('com.linkedin.test.TestDefinition', [
          req('type', enumOf('com.linkedin.test.TestDefinitionType', ['JSON'])),
          opt('json', 'string'),
        ]),
      ),
      opt('created', 'com.linkedin.common.AuditStamp'),
      opt('lastUpdated', 'com.linkedin.common.AuditStamp'),
    ]),
    searchable: [
      { fieldName: 'name', path: 'name', type: 'TEXT_PARTIAL', boost: 10, enableAutocomplete: true },
      {
        fieldName: 'category',
        path: 'category',
        type: 'KEYWORD',
        addToFilters: true,
        filterName: 'Category',
      },
      { fieldName: 'description', path: 'description', type: 'TEXT' },
    ],
  }),
  aspect({
    name: 'testResults',
    schema: record('com.linkedin.test.TestResults', [
      req('failing', arrayOf(TEST_RESULT)),
      req('passing', arrayOf('com.linkedin.test.TestResult')),
    ]),
    searchable: [
      {
        fieldName: 'failingTests',
        path: 'failing/*/test',
        type: 'URN',
        hasValuesFieldName: 'hasFailingTests',
        addToFilters: true,
        filterName: 'Failing Tests',
        queryByDefault: false,
      },
      {
        fieldName: 'passingTests',
        path: 'passing/*/test',
        type: 'URN',
        hasValuesFieldName: 'hasPassingTests',
        addToFilters: true,
        filterName: 'Passing Tests',
        queryByDefault: false,
      },
    ],
    relationships: [
      { name: 'IsFailing', path: 'failing/*/test', entityTypes: ['test'] },
      { name: 'IsPassing', path: 'passing/*/test', entityTypes: ['test'] },
    ],
  }),
  aspect({
    name: 'dataHubPolicyInfo',
    schema: record('com.linkedin.policy.DataHubPolicyInfo', [
      req('displayName', 'string'),
      opt('description', 'string'),
      req('type', 'string'),
      req('state', 'string'),
      opt(
        'resources',
        record('com.linkedin.policy.DataHubResourceFilter', [
          opt('type', 'string'),
          opt('resources', arrayOf('string')),
          req('allResources', 'boolean', false),
          opt(
            'filter',
            record('com.linkedin.policy.PolicyMatchFilter', [
              req(
                'criteria',
                arrayOf(
                  record('com.linkedin.policy.PolicyMatchCriterion', [
                    req('field', 'string'),
                    req('values', arrayOf('string')),
                    req(
                      'condition',
                      enumOf('com.linkedin.policy.PolicyMatchCondition', [
                        'EQUALS',
                        'STARTS_WITH',
                        'NOT_EQUALS',
                      ]),
                      'EQUALS',
                    ),
                  ]),
                ),
              ),
            ]),
          ),
          opt('privilegeConstraints', 'com.linkedin.policy.PolicyMatchFilter'),
        ]),
      ),
      req('privileges', arrayOf('string')),
      req(
        'actors',
        record('com.linkedin.policy.DataHubActorFilter', [
          opt('users', arrayOf(URN)),
          opt('groups', arrayOf(URN)),
          req('resourceOwners', 'boolean', false),
          opt('resourceOwnersTypes', arrayOf(URN)),
          req('allUsers', 'boolean', false),
          req('allGroups', 'boolean', false),
          opt('roles', arrayOf(URN)),
        ]),
      ),
      req('editable', 'boolean', true),
      opt('lastUpdatedTimestamp', 'long'),
    ]),
    searchable: [
      { fieldName: 'displayName', path: 'displayName', type: 'TEXT_PARTIAL', enableAutocomplete: true },
      { fieldName: 'description', path: 'description', type: 'TEXT' },
      { fieldName: 'type', path: 'type', type: 'KEYWORD', addToFilters: true, filterName: 'Type' },
      { fieldName: 'state', path: 'state', type: 'KEYWORD', addToFilters: true, filterName: 'State' },
      { fieldName: 'privileges', path: 'privileges', type: 'KEYWORD', queryByDefault: false },
      { fieldName: 'users', path: 'actors/users', type: 'URN', queryByDefault: false },
      { fieldName: 'groups', path: 'actors/groups', type: 'URN', queryByDefault: false },
      { fieldName: 'roles', path: 'actors/roles', type: 'URN', queryByDefault: false },
      { fieldName: 'editable', path: 'editable', type: 'BOOLEAN', queryByDefault: false },
      {
        fieldName: 'lastUpdatedTimestamp',
        path: 'lastUpdatedTimestamp',
        type: 'DATETIME',
        queryByDefault: false,
      },
    ],
  }),
  aspect({
    name: 'dataHubAccessTokenInfo',
    schema: record('com.linkedin.access.token.DataHubAccessTokenInfo', [
      req('name', 'string'),
      req('actorUrn', URN),
      req('ownerUrn', URN),
      req('createdAt', 'long'),
      opt('expiresAt', 'long'),
      opt('description', 'string'),
    ]),
    searchable: [
      { fieldName: 'name', path: 'name', type: 'TEXT_PARTIAL' },
      { fieldName: 'actorUrn', path: 'actorUrn', type: 'URN', queryByDefault: false },
      { fieldName: 'ownerUrn', path: 'ownerUrn', type: 'URN', queryByDefault: false },
      { fieldName: 'createdAt', path: 'createdAt', type: 'DATETIME', queryByDefault: false },
      { fieldName: 'expiresAt', path: 'expiresAt', type: 'DATETIME', queryByDefault: false },
    ],
  }),
  aspect({
    name: 'dataHubIngestionSourceInfo',
    schema: record('com.linkedin.ingestion.DataHubIngestionSourceInfo', [
      req('name', 'string'),
      req('type', 'string'),
      opt('platform', URN),
      opt(
        'schedule',
        record('com.linkedin.ingestion.DataHubIngestionSourceSchedule', [
          req('interval', 'string'),
          req('timezone', 'string'),
        ]),
      ),
      req(
        'config',
        record('com.linkedin.ingestion.DataHubIngestionSourceConfig', [
          req('recipe', 'string'),
          opt('version', 'string'),
          opt('executorId', 'string'),
          opt('debugMode', 'boolean'),
          opt('extraArgs', mapOf('string')),
        ]),
      ),
      opt('source', record('com.linkedin.ingestion.DataHubIngestionSourceSource', [req('type', 'string')])),
    ]),
    searchable: [
      { fieldName: 'name', path: 'name', type: 'TEXT_PARTIAL', enableAutocomplete: true },
      { fieldName: 'type', path: 'type', type: 'TEXT_PARTIAL' },
      { fieldName: 'sourceType', path: 'source/type', type: 'KEYWORD', queryByDefault: false },
    ],
  }),
];
