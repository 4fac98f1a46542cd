import {
  jsonBody,
  pathParam,
  queryParam,
  success,
  type Operation,
  type Parameter,
} from '../api-contract/operation.js';
import { MAX_PAGE_SIZE } from '@catalog/search';

const URN = pathParam('urn', 'The entity urn, percent-encoded');
const ANY_BODY = jsonBody({ type: 'object' });
const ANY_OK = success('The result', { type: 'object' });
const action = (names: readonly string[]): Parameter =>
  queryParam('action', { type: 'string', enum: [...names] }, 'The action', true);
const restli = (
  method: Operation['method'],
  path: string,
  summary: string,
  rest: Partial<Operation> = {},
): Operation => ({
  group: '70-restli',
  method,
  path,
  tag: 'rest.li',
  summary,
  parameters: [],
  responses: ANY_OK,
  ...rest,
});

const DIRECTION = queryParam(
  'direction',
  { type: 'string', enum: ['INCOMING', 'OUTGOING'] },
  'Direction',
  true,
);
const START = queryParam(
  'start',
  { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE * 100, default: 0 },
  'First result',
);

const DATASET_SNAPSHOT = 'com.linkedin.metadata.snapshot.DatasetSnapshot';
const EXAMPLE_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const EXAMPLE_PROPERTIES = {
  'com.linkedin.dataset.DatasetProperties': { description: 'One row per order', customProperties: {} },
};
const EXAMPLE_ENTITY = {
  value: {
    [DATASET_SNAPSHOT]: {
      urn: EXAMPLE_DATASET,
      aspects: [
        EXAMPLE_PROPERTIES,
        { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:pii' }] } },
        { 'com.linkedin.common.Status': { removed: false } },
      ],
    },
  },
};

/** The actions of `POST /entities`, each with an example body. */
export const ENTITIES_ACTION_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  search: { entity: 'dataset', input: 'orders', start: 0, count: 10 },
  browse: { entity: 'dataset', path: '/prod/hive', start: 0, limit: 10 },
  autocomplete: { entity: 'dataset', query: 'ord', limit: 10 },
  ingest: { entity: EXAMPLE_ENTITY, systemMetadata: { runId: 'my-run', lastObserved: 1_700_000_000_000 } },
  batchIngest: { entities: [EXAMPLE_ENTITY], systemMetadata: [{ runId: 'my-run' }] },
  exists: { urn: EXAMPLE_DATASET, includeSoftDelete: false },
  getBrowsePaths: { urn: EXAMPLE_DATASET },
  list: { entity: 'dataset', start: 0, count: 10 },
  listUrns: { entity: 'dataset', start: 0, count: 10 },
  delete: {
    urn: EXAMPLE_DATASET,
    aspectName: 'datasetProfile',
    startTimeMillis: 0,
    endTimeMillis: 1_700_000_000_000,
  },
  deleteReferences: { urn: 'urn:li:tag:pii', dryRun: true },
};
const ENTITIES_ACTIONS = Object.keys(ENTITIES_ACTION_EXAMPLES);

/** The Rest.li-style endpoints (spec 4.14); `/restli/docs` renders them. */
export const RESTLI_OPERATIONS = {
  aspectsAction: restli('post', '/aspects', 'Ingest proposals, or read time-series values', {
    parameters: [action(['ingestProposal', 'ingestProposalBatch', 'getTimeseriesAspectValues', 'getCount'])],
    body: ANY_BODY,
  }),
  getAspect: restli('get', '/aspects/{urn}', 'One version of one aspect', {
    parameters: [
      URN,
      queryParam('aspect', { type: 'string' }, 'Aspect name'),
      queryParam('version', { type: 'integer', default: 0 }, 'Version'),
    ],
  }),
  getEntityV2: restli('get', '/entitiesV2/{urn}', 'Every aspect of an entity', {
    parameters: [URN, queryParam('aspects', { type: 'string' }, 'List(a,b)')],
  }),
  batchGetEntityV2: restli('get', '/entitiesV2', 'Several entities', {
    parameters: [queryParam('ids', { type: 'string' }, 'List(urn,urn)')],
  }),
  getEntity: restli('get', '/entities/{urn}', 'An entity as a legacy snapshot (404 when absent)', {
    parameters: [
      URN,
      queryParam('aspects', { type: 'string' }, 'List(a,b); the key aspect is always included'),
    ],
    responses: success('The snapshot', {
      type: 'object',
      examples: [{ value: { [DATASET_SNAPSHOT]: { urn: EXAMPLE_DATASET, aspects: [EXAMPLE_PROPERTIES] } } }],
    }),
  }),
  batchGetEntity: restli('get', '/entities', 'Several entities as legacy snapshots', {
    parameters: [
      queryParam('ids', { type: 'string' }, 'List(urn,urn)', true),
      queryParam('aspects', { type: 'string' }, 'List(a,b)'),
    ],
    responses: success('The Rest.li batch map', {
      type: 'object',
      examples: [{ results: {}, statuses: {}, errors: {} }],
    }),
  }),
  entitiesAction: restli(
    'post',
    '/entities',
    'Search, browse, autocomplete, list; legacy snapshot ingest (ingest, batchIngest), exists, getBrowsePaths',
    {
      parameters: [action(ENTITIES_ACTIONS)],
      body: jsonBody({
        type: 'object',
        description: `The action's parameters; one example per action, in this order: ${ENTITIES_ACTIONS.join(', ')}`,
        examples: ENTITIES_ACTIONS.map((name) => ENTITIES_ACTION_EXAMPLES[name]),
      }),
    },
  ),
  analyticsAction: restli('post', '/analytics', 'Aggregated statistics of a time-series aspect', {
    parameters: [action(['getTimeseriesStats'])],
    body: ANY_BODY,
  }),
  runsAction: restli('post', '/runs', 'List, describe and roll back ingestion runs', {
    parameters: [action(['list', 'describe', 'rollback'])],
    body: ANY_BODY,
  }),
  relationships: restli('get', '/relationships', 'Related entities', {
    parameters: [
      queryParam('urn', { type: 'string' }, 'Entity urn', true),
      DIRECTION,
      queryParam('types', { type: 'string' }, 'A name or List(a,b)', true),
      START,
      queryParam('count', { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE, default: 100 }, 'Results'),
    ],
  }),
  testAction: restli('post', '/gms/test', 'Evaluate metadata tests on entities (also at /test)', {
    parameters: [action(['evaluate', 'batchEvaluate'])],
    body: ANY_BODY,
  }),
} as const satisfies Record<string, Operation>;

/** `/openapi/relationships/v1`, what the SDK's `get_related_entities` pages through. */
export const RELATIONSHIPS_V1_OPERATION: Operation = {
  group: '60-openapi-v1',
  method: 'get',
  path: '/openapi/relationships/v1',
  tag: 'relationships',
  summary: 'Related entities, as the SDK pages them',
  parameters: [
    queryParam('urn', { type: 'string' }, 'Entity urn', true),
    DIRECTION,
    queryParam(
      'relationshipTypes',
      { type: 'array', items: { type: 'string' }, minItems: 1 },
      'Relationship names, repeated or comma-separated',
      true,
    ),
    START,
    queryParam('count', { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE, default: 200 }, 'Results'),
  ],
  responses: ANY_OK,
};

/** One parameter of a Rest.li action's JSON body. */
export interface RestliActionParameter {
  readonly name: string;
  /** A JSON type (string, integer, boolean, object, array), or a short shape. */
  readonly type: string;
  readonly description: string;
  readonly required?: boolean;
}

/** One `POST <path>?action=<name>`: what it does, the parameters of its body, and an example body. */
export interface RestliAction {
  readonly summary: string;
  readonly parameters: readonly RestliActionParameter[];
  readonly example: Readonly<Record<string, unknown>>;
}

const param = (name: string, type: string, description: string, required = false): RestliActionParameter => ({
  name,
  type,
  description,
  ...(required ? { required } : {}),
});

const EXAMPLE_PROPOSAL = {
  entityType: 'dataset',
  entityUrn: EXAMPLE_DATASET,
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: {
    contentType: 'application/json',
    value: JSON.stringify({ description: 'One row per order', customProperties: {} }),
  },
  systemMetadata: { runId: 'my-run', lastObserved: 1_700_000_000_000 },
};
const ASYNC = param('async', 'string', '"true" or "false": whether to answer before the write is applied');
const FILTER = param('filter', 'object', 'A Rest.li filter: {or: [{and: [{field, values, condition}]}]}');
const SEARCH_ENTITY = param('entity', 'string', 'The entity type, e.g. dataset', true);
const TESTS = param('tests', 'array', 'Test urns to run (also testUrns); every stored test when absent');
const EXAMPLE_TEST = 'urn:li:test:described';

/**
 * The actions of each `POST <path>?action=` endpoint of RESTLI_OPERATIONS, by path then action name:
 * `/restli/docs` renders each with its parameters and example. The examples of `/entities` are
 * ENTITIES_ACTION_EXAMPLES.
 */
export const RESTLI_ACTIONS: Readonly<Record<string, Readonly<Record<string, RestliAction>>>> = {
  '/analytics': {
    getTimeseriesStats: {
      summary: 'Statistics of a time-series aspect: rows by bucket, a column per metric',
      parameters: [
        param('entityName', 'string', 'The entity type', true),
        param('aspectName', 'string', 'The time-series aspect', true),
        param('metrics', 'array', '{fieldPath, aggregationType: LATEST, SUM or CARDINALITY}', true),
        param(
          'buckets',
          'array',
          '{key, type: STRING_GROUPING_BUCKET or DATE_GROUPING_BUCKET, timeWindowSize}',
        ),
        FILTER,
      ],
      example: {
        entityName: 'dataset',
        aspectName: 'datasetProfile',
        metrics: [{ fieldPath: 'rowCount', aggregationType: 'LATEST' }],
        buckets: [
          {
            key: 'timestampMillis',
            type: 'DATE_GROUPING_BUCKET',
            timeWindowSize: { multiple: 1, unit: 'DAY' },
          },
        ],
      },
    },
  },
  '/aspects': {
    getCount: {
      summary: 'How many entities hold an aspect, optionally among urns matching a LIKE pattern',
      parameters: [
        param('aspect', 'string', 'The aspect name', true),
        param('urnLike', 'string', 'A SQL LIKE pattern over urns (% any run, _ one character)'),
      ],
      example: { aspect: 'datasetProperties', urnLike: 'urn:li:dataset:%' },
    },
    ingestProposal: {
      summary: 'Write one metadata change proposal',
      parameters: [param('proposal', 'object', 'The MetadataChangeProposal', true), ASYNC],
      example: { proposal: EXAMPLE_PROPOSAL, async: 'false' },
    },
    ingestProposalBatch: {
      summary: 'Write several proposals; each gets its own outcome',
      parameters: [param('proposals', 'array', 'MetadataChangeProposals', true), ASYNC],
      example: { proposals: [EXAMPLE_PROPOSAL], async: 'false' },
    },
    getTimeseriesAspectValues: {
      summary: 'The values of a time-series aspect of an entity, newest first',
      parameters: [
        param('urn', 'string', 'The entity urn', true),
        param('entity', 'string', "The entity type (the urn's when absent)"),
        param('aspect', 'string', 'The time-series aspect', true),
        param('startTimeMillis', 'integer', 'Oldest timestampMillis, inclusive'),
        param('endTimeMillis', 'integer', 'Newest timestampMillis, inclusive'),
        param('limit', 'integer', 'Values to return'),
        FILTER,
      ],
      example: {
        urn: EXAMPLE_DATASET,
        entity: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: 0,
        endTimeMillis: 1_700_000_000_000,
        limit: 10,
      },
    },
  },
  '/entities': {
    listUrns: {
      summary: 'The urns of one entity type, a page at a time (ListUrnsResult)',
      parameters: [
        SEARCH_ENTITY,
        param('start', 'integer', 'First result'),
        param('count', 'integer', 'Results'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['listUrns']!,
    },
    search: {
      summary: 'Full-text search over one entity type',
      parameters: [
        SEARCH_ENTITY,
        param('input', 'string', 'The query; * matches everything'),
        param('start', 'integer', 'First result'),
        param('count', 'integer', 'Results'),
        FILTER,
      ],
      example: ENTITIES_ACTION_EXAMPLES['search']!,
    },
    browse: {
      summary: 'The groups and entities under a browse path',
      parameters: [
        SEARCH_ENTITY,
        param('path', 'string', 'The browse path, / when absent'),
        param('start', 'integer', 'First result'),
        param('limit', 'integer', 'Results'),
        FILTER,
      ],
      example: ENTITIES_ACTION_EXAMPLES['browse']!,
    },
    autocomplete: {
      summary: 'Completions of a prefix',
      parameters: [
        SEARCH_ENTITY,
        param('query', 'string', 'The prefix'),
        param('field', 'string', 'The field to complete (the default fields when absent)'),
        param('limit', 'integer', 'Suggestions'),
        FILTER,
      ],
      example: ENTITIES_ACTION_EXAMPLES['autocomplete']!,
    },
    ingest: {
      summary: 'Write an entity given as a legacy snapshot (deprecated): each aspect an UPSERT',
      parameters: [
        param('entity', 'object', '{value: {<Snapshot class>: {urn, aspects}}}', true),
        param('systemMetadata', 'object', 'The system metadata of every aspect (runId, lastObserved)'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['ingest']!,
    },
    batchIngest: {
      summary: 'Write several legacy snapshots (deprecated)',
      parameters: [
        param('entities', 'array', 'Entities as ingest takes them', true),
        param('systemMetadata', 'array', 'One system metadata per entity'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['batchIngest']!,
    },
    exists: {
      summary: 'Whether the entity exists',
      parameters: [
        param('urn', 'string', 'The entity urn', true),
        param('includeSoftDelete', 'boolean', 'Whether a soft-deleted entity counts (default true)'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['exists']!,
    },
    getBrowsePaths: {
      summary: 'The browse paths of an entity',
      parameters: [param('urn', 'string', 'The entity urn', true)],
      example: ENTITIES_ACTION_EXAMPLES['getBrowsePaths']!,
    },
    list: {
      summary: 'The urns of one entity type, a page at a time',
      parameters: [
        SEARCH_ENTITY,
        param('start', 'integer', 'First result'),
        param('count', 'integer', 'Results'),
        FILTER,
        param('sortCriteria', 'array', 'Sort criteria: [{field, order}] (also sort: one criterion)'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['list']!,
    },
    delete: {
      summary:
        'Hard-delete an entity (every version, its document, its edges), or the values of one time-series aspect in a range',
      parameters: [
        param('urn', 'string', 'The entity urn', true),
        param('aspectName', 'string', 'A time-series aspect: delete only its values'),
        param('startTimeMillis', 'integer', 'With aspectName: oldest value to delete'),
        param('endTimeMillis', 'integer', 'With aspectName: newest value to delete'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['delete']!,
    },
    deleteReferences: {
      summary: 'Remove the references other entities make to this one',
      parameters: [
        param('urn', 'string', 'The entity urn', true),
        param('dryRun', 'boolean', 'Only report what would be removed'),
      ],
      example: ENTITIES_ACTION_EXAMPLES['deleteReferences']!,
    },
  },
  '/runs': {
    list: {
      summary: 'The ingestion runs, newest lastObserved first, as {runId, rows, timestamp}',
      parameters: [
        param('pageOffset', 'integer', 'First run (default 0)'),
        param('pageSize', 'integer', 'Runs (default 100)'),
        param(
          'includeSoft',
          'boolean',
          'Also runs whose rows all belong to soft-deleted entities (default false)',
        ),
      ],
      example: { pageOffset: 0, pageSize: 100, includeSoft: false },
    },
    describe: {
      summary: 'The latest rows of a run, by urn then aspect',
      parameters: [
        param('runId', 'string', 'The run', true),
        param('start', 'integer', 'First row (default 0)'),
        param('count', 'integer', 'Rows (default 100)'),
        param('includeSoft', 'boolean', 'Include rows of soft-deleted entities'),
        param('includeAspect', 'boolean', "Add each row's current value"),
      ],
      example: { runId: 'my-run', start: 0, count: 100, includeSoft: false, includeAspect: false },
    },
    rollback: {
      summary: 'Undo what a run wrote last: restore the previous versions, delete what it created',
      parameters: [
        param('runId', 'string', 'The run', true),
        param('dryRun', 'boolean', 'Only report what would be rolled back'),
        param('safe', 'boolean', 'Soft: keep the keys of created entities, marked removed'),
        param('hardDelete', 'boolean', 'Deprecated; hard when true and safe is absent'),
      ],
      example: { runId: 'my-run', dryRun: true, safe: true },
    },
  },
  '/gms/test': {
    evaluate: {
      summary: 'Run the metadata tests on one entity',
      parameters: [
        param('urn', 'string', 'The entity urn', true),
        TESTS,
        param('push', 'boolean', 'Store the results as the entity’s testResults (also shouldPush)'),
      ],
      example: { urn: EXAMPLE_DATASET, tests: [EXAMPLE_TEST], push: false },
    },
    batchEvaluate: {
      summary: 'Run the metadata tests on up to 100 entities',
      parameters: [
        param('urns', 'array', 'Entity urns, at most 100', true),
        TESTS,
        param('push', 'boolean', 'Store the results as each entity’s testResults (also shouldPush)'),
      ],
      example: { urns: [EXAMPLE_DATASET], push: false },
    },
  },
};

/** A urn as Rest.li 2.0 clients put it in a path or a List(): percent-encoded, parentheses too. */
const restliEncoded = (urn: string) => encodeURIComponent(urn).replace(/\(/g, '%28').replace(/\)/g, '%29');

/** An example call of each GET endpoint of RESTLI_OPERATIONS, by `GET <path template>`. */
export const RESTLI_GET_EXAMPLES: Readonly<Record<string, string>> = {
  'GET /aspects/{urn}': `/aspects/${restliEncoded(EXAMPLE_DATASET)}?aspect=datasetProperties&version=0`,
  'GET /entitiesV2/{urn}': `/entitiesV2/${restliEncoded(EXAMPLE_DATASET)}?aspects=List(datasetProperties,globalTags)`,
  'GET /entitiesV2': `/entitiesV2?ids=List(${restliEncoded(EXAMPLE_DATASET)})`,
  'GET /entities/{urn}': `/entities/${restliEncoded(EXAMPLE_DATASET)}`,
  'GET /entities': `/entities?ids=List(${restliEncoded(EXAMPLE_DATASET)})&aspects=List(datasetProperties)`,
  'GET /relationships': `/relationships?urn=${restliEncoded('urn:li:tag:pii')}&direction=INCOMING&types=List(TaggedWith)&start=0&count=10`,
};
