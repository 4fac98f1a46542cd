import { enc } from './harness.js';

/**
 * The read routes of every interface (Rest.li, OpenAPI, GraphQL), as a table the read-policy walk
 * (read-policy-walk.e2e.test.ts) sends as each kind of user. Each row names its route; rows over an
 * entity are expanded once per seeded entity that holds restricted or privileged material.
 *
 * Kept beside the gateway's route list (services/gateway/src/app.ts, openapi/, graphql/ schema
 * files): a new read route belongs here.
 */

/** The entities the walk seeded, and the run that wrote the secret and the dataset. */
export interface WalkSeed {
  /** A native user with a password and a pending reset token. */
  readonly user: string;
  readonly secret: string;
  readonly invite: string;
  readonly accessToken: string;
  readonly dataset: string;
  readonly runId: string;
}

/**
 * One HTTP request of a row: GraphQL rows are a POST of `{query, variables}` to /api/graphql, MCP rows a
 * JSON-RPC `tools/call` to /mcp (with the Accept header streamable HTTP requires).
 */
export interface WalkRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ReadRoute {
  /** The route and, for rows over an entity, which one (e.g. `GET /entitiesV2/{secret}`). */
  readonly name: string;
  readonly request: (seed: WalkSeed) => WalkRequest;
}

/** A seeded entity the urn routes are walked over: its type and the aspect that holds its material. */
interface Target {
  readonly key: 'user' | 'secret' | 'invite' | 'accessToken';
  readonly entity: string;
  readonly aspect: string;
  /** Whether Rest.li `/entities` has a snapshot form of it. */
  readonly snapshot: boolean;
  /** Whether GraphQL resolves it as an entity (secrets and invite tokens have no type there: null). */
  readonly graphql: boolean;
}

const TARGETS: readonly Target[] = [
  { key: 'user', entity: 'corpuser', aspect: 'corpUserCredentials', snapshot: true, graphql: true },
  { key: 'secret', entity: 'dataHubSecret', aspect: 'dataHubSecretValue', snapshot: false, graphql: false },
  { key: 'invite', entity: 'inviteToken', aspect: 'inviteToken', snapshot: false, graphql: false },
  {
    key: 'accessToken',
    entity: 'dataHubAccessToken',
    aspect: 'dataHubAccessTokenInfo',
    snapshot: false,
    graphql: true,
  },
];

/** The entity types the list, search and browse routes are walked over. */
const TYPES = [...TARGETS.map((t) => t.entity), 'dataset'];

const get = (path: string): WalkRequest => ({ method: 'GET', path });
const post = (path: string, body: unknown): WalkRequest => ({ method: 'POST', path, body });
const urnOf = (seed: WalkSeed, target: Target): string => seed[target.key];
const allUrns = (seed: WalkSeed): string[] => TARGETS.map((t) => urnOf(seed, t));
const snapshots = (t: Target): boolean => t.snapshot;
const restliList = (urns: readonly string[]): string => `List(${urns.map(enc).join(',')})`;

/** Rows over each target entity. */
function perTarget(
  name: string,
  request: (urn: string, target: Target, seed: WalkSeed) => WalkRequest,
  which: (target: Target) => boolean = () => true,
) {
  return TARGETS.filter(which).map((target): ReadRoute => ({
    name: name.replace('{t}', `{${target.key}}`).replace('{aspect}', target.aspect),
    request: (seed) => request(urnOf(seed, target), target, seed),
  }));
}

/** Rows over each entity type. */
function perType(name: string, request: (entity: string) => WalkRequest): ReadRoute[] {
  return TYPES.map((entity) => ({ name: name.replace('{type}', entity), request: () => request(entity) }));
}

const RESTLI: readonly ReadRoute[] = [
  ...perTarget('Rest.li GET /entitiesV2/{t}', (urn) => get(`/entitiesV2/${enc(urn)}`)),
  ...perTarget('Rest.li GET /entitiesV2/{t}?aspects=List({aspect})', (urn, t) =>
    get(`/entitiesV2/${enc(urn)}?aspects=List(${t.aspect})`),
  ),
  ...perTarget('Rest.li GET /entitiesV2?ids=List({t})', (urn) => get(`/entitiesV2?ids=${restliList([urn])}`)),
  ...perTarget('Rest.li GET /entitiesV2?ids=List({t})&aspects=List({aspect})', (urn, t) =>
    get(`/entitiesV2?ids=${restliList([urn])}&aspects=List(${t.aspect})`),
  ),
  {
    name: 'Rest.li GET /entitiesV2?ids=List(every seeded)',
    request: (seed) => get(`/entitiesV2?ids=${restliList(allUrns(seed))}`),
  },
  ...perTarget('Rest.li GET /aspects/{t}?aspect={aspect}&version=0', (urn, t) =>
    get(`/aspects/${enc(urn)}?aspect=${t.aspect}&version=0`),
  ),
  ...perTarget('Rest.li GET /aspects/{t}?aspect={aspect}&version=1', (urn, t) =>
    get(`/aspects/${enc(urn)}?aspect=${t.aspect}&version=1`),
  ),
  // Snapshots: only the entity types that have a snapshot form.
  ...perTarget('Rest.li GET /entities/{t}', (urn) => get(`/entities/${enc(urn)}`), snapshots),
  ...perTarget(
    'Rest.li GET /entities/{t}?aspects=List({aspect})',
    (urn, t) => get(`/entities/${enc(urn)}?aspects=List(${t.aspect})`),
    snapshots,
  ),
  ...perTarget(
    'Rest.li GET /entities?ids=List({t})',
    (urn) => get(`/entities?ids=${restliList([urn])}`),
    snapshots,
  ),
  ...perType('Rest.li POST /entities?action=search {entity: {type}}', (entity) =>
    post('/entities?action=search', { entity, input: '*', start: 0, count: 100 }),
  ),
  // Of the seeded types, only datasets have browse paths.
  {
    name: 'Rest.li POST /entities?action=browse {entity: dataset}',
    request: () => post('/entities?action=browse', { entity: 'dataset', path: '/', start: 0, limit: 100 }),
  },
  ...perType('Rest.li POST /entities?action=autocomplete {entity: {type}}', (entity) =>
    post('/entities?action=autocomplete', { entity, query: 'walk', limit: 100 }),
  ),
  ...perType('Rest.li POST /entities?action=list {entity: {type}}', (entity) =>
    post('/entities?action=list', { entity, start: 0, count: 100 }),
  ),
  ...perType('Rest.li POST /entities?action=listUrns {entity: {type}}', (entity) =>
    post('/entities?action=listUrns', { entity, start: 0, count: 100 }),
  ),
  ...perTarget('Rest.li POST /aspects?action=getCount {aspect: {aspect}}', (_urn, t) =>
    post('/aspects?action=getCount', { aspect: t.aspect }),
  ),
  ...perTarget('Rest.li POST /entities?action=getBrowsePaths {urn: {t}}', (urn) =>
    post('/entities?action=getBrowsePaths', { urn }),
  ),
  ...perTarget('Rest.li POST /entities?action=exists {urn: {t}}', (urn) =>
    post('/entities?action=exists', { urn }),
  ),
  ...perTarget('Rest.li GET /relationships?urn={t}&direction=OUTGOING', (urn) =>
    get(`/relationships?urn=${enc(urn)}&direction=OUTGOING&types=List(IsMemberOfRole,OwnedBy)`),
  ),
  ...perTarget('Rest.li GET /relationships?urn={t}&direction=INCOMING', (urn) =>
    get(`/relationships?urn=${enc(urn)}&direction=INCOMING&types=List(OwnedBy,IsMemberOfRole)`),
  ),
  {
    name: 'Rest.li GET /relationships?urn={Reader role}&direction=INCOMING',
    request: () =>
      get(
        `/relationships?urn=${enc('urn:li:dataHubRole:Reader')}&direction=INCOMING&types=List(IsMemberOfRole)`,
      ),
  },
  {
    name: 'Rest.li POST /runs?action=describe {seeded run, includeAspect: true}',
    request: (seed) => post('/runs?action=describe', { runId: seed.runId, count: 100, includeAspect: true }),
  },
  {
    name: 'Rest.li POST /runs?action=describe {no-run-id-provided, includeAspect: true}',
    request: () =>
      post('/runs?action=describe', { runId: 'no-run-id-provided', count: 100, includeAspect: true }),
  },
  { name: 'Rest.li POST /runs?action=list', request: () => post('/runs?action=list', { pageSize: 100 }) },
  {
    name: 'Rest.li POST /analytics?action=getTimeseriesStats {dataset, datasetProfile, by urn}',
    request: () =>
      post('/analytics?action=getTimeseriesStats', {
        entityName: 'dataset',
        aspectName: 'datasetProfile',
        metrics: [{ fieldPath: 'rowCount', aggregationType: 'LATEST' }],
        buckets: [{ key: 'urn', type: 'STRING_GROUPING_BUCKET' }],
      }),
  },
  {
    name: 'Rest.li POST /aspects?action=getTimeseriesAspectValues {dataset, datasetProfile}',
    request: (seed) =>
      post('/aspects?action=getTimeseriesAspectValues', {
        urn: seed.dataset,
        entity: 'dataset',
        aspect: 'datasetProfile',
      }),
  },
];

/** The OpenAPI entity routes of one version (`v3` or the deprecated `v2`). */
function openApiEntityRoutes(version: 'v2' | 'v3'): ReadRoute[] {
  const base = `/openapi/${version}/entity`;
  return [
    ...TARGETS.map((t): ReadRoute => ({
      name: `OpenAPI ${version} GET /entity/${t.entity}?count=100&aspects=${t.aspect}`,
      request: () => get(`${base}/${t.entity}?count=100&aspects=${t.aspect}`),
    })),
    ...perType(`OpenAPI ${version} GET /entity/{type}?count=100`, (entity) =>
      get(`${base}/${entity}?count=100`),
    ),
    ...perTarget(`OpenAPI ${version} GET /entity/{type}/{t}`, (urn, t) =>
      get(`${base}/${t.entity}/${enc(urn)}`),
    ),
    ...perTarget(`OpenAPI ${version} GET /entity/{type}/{t}?aspects={aspect}`, (urn, t) =>
      get(`${base}/${t.entity}/${enc(urn)}?aspects=${t.aspect}`),
    ),
    ...perTarget(`OpenAPI ${version} GET /entity/{type}/{t}/{aspect}`, (urn, t) =>
      get(`${base}/${t.entity}/${enc(urn)}/${t.aspect}`),
    ),
    ...perTarget(`OpenAPI ${version} GET /entity/{type}/{t}/{aspect}?version=1`, (urn, t) =>
      get(`${base}/${t.entity}/${enc(urn)}/${t.aspect}?version=1`),
    ),
  ];
}

const OPENAPI: readonly ReadRoute[] = [
  ...openApiEntityRoutes('v3'),
  ...perTarget('OpenAPI v3 POST /entity/{type}/batchGet [{t}: {aspect}]', (urn, t) =>
    post(`/openapi/v3/entity/${t.entity}/batchGet`, [{ urn, [t.aspect]: {} }]),
  ),
  ...perTarget('OpenAPI v3 POST /entity/{type}/batchGet [{t}] (all aspects)', (urn, t) =>
    post(`/openapi/v3/entity/${t.entity}/batchGet`, [{ urn }]),
  ),
  {
    name: 'OpenAPI v3 POST /entity/generic/batchGet (every seeded entity, its restricted aspect)',
    request: (seed) =>
      post(
        '/openapi/v3/entity/generic/batchGet',
        Object.fromEntries(TARGETS.map((t) => [t.entity, [{ urn: urnOf(seed, t), [t.aspect]: {} }]])),
      ),
  },
  {
    name: 'OpenAPI v3 POST /entity/scroll (every type, every aspect)',
    request: () => post('/openapi/v3/entity/scroll?count=100', { aspects: [] }),
  },
  {
    name: 'OpenAPI v3 POST /entity/scroll (seeded types, every aspect)',
    request: () => post('/openapi/v3/entity/scroll?count=100', { entities: TYPES, aspects: [] }),
  },
  {
    name: 'OpenAPI v3 POST /entity/scroll (seeded types, restricted aspects)',
    request: () =>
      post('/openapi/v3/entity/scroll?count=100', { entities: TYPES, aspects: TARGETS.map((t) => t.aspect) }),
  },
  ...openApiEntityRoutes('v2'),
  ...perTarget('OpenAPI v2 POST /entity/batch/{type} {urns: [{t}]}', (urn, t) =>
    post(`/openapi/v2/entity/batch/${t.entity}`, { urns: [urn], withSystemMetadata: true }),
  ),
  ...perTarget('OpenAPI v2 POST /entity/batch/{type} {urns: [{t}], aspectNames: [{aspect}]}', (urn, t) =>
    post(`/openapi/v2/entity/batch/${t.entity}`, { urns: [urn], aspectNames: [t.aspect] }),
  ),
  ...perTarget('OpenAPI GET /openapi/relationships/v1?urn={t}&direction=OUTGOING', (urn) =>
    get(`/openapi/relationships/v1?urn=${enc(urn)}&relationshipTypes=IsMemberOfRole&direction=OUTGOING`),
  ),
  {
    name: 'OpenAPI GET /openapi/relationships/v1?urn={Reader role}&direction=INCOMING',
    request: () =>
      get(
        `/openapi/relationships/v1?urn=${enc('urn:li:dataHubRole:Reader')}&relationshipTypes=IsMemberOfRole&direction=INCOMING`,
      ),
  },
  {
    name: 'OpenAPI POST /openapi/v3/relationship/scroll (every edge)',
    request: () => post('/openapi/v3/relationship/scroll?count=1000', {}),
  },
  ...perTarget('OpenAPI POST /openapi/v3/relationship/scroll {sourceFilter: urn {t}}', (urn) =>
    post('/openapi/v3/relationship/scroll?direction=UNDIRECTED', {
      sourceFilter: { and: [{ criteria: [{ field: 'urn', values: [urn] }] }] },
    }),
  ),
  {
    name: 'OpenAPI POST /openapi/v3/lineage/scroll (every lineage edge)',
    request: () => post('/openapi/v3/lineage/scroll?count=1000', {}),
  },
  {
    name: 'OpenAPI GET /openapi/v2/timeseries/dataset/datasetProfile',
    request: () => get('/openapi/v2/timeseries/dataset/datasetProfile?count=100'),
  },
  ...['/openapi/v2/timeline/v1', '/openapi/timeline/v1'].map((route) => ({
    name: `OpenAPI GET ${route}/{dataset}?categories=(every category)&raw=true`,
    request: (seed: WalkSeed) =>
      get(
        `${route}/${enc(seed.dataset)}?raw=true&categories=TAG,OWNERSHIP,GLOSSARY_TERM,TECHNICAL_SCHEMA,DOCUMENTATION,DOMAIN,STRUCTURED_PROPERTY,APPLICATION,VERSIONING`,
      ),
  })),
  {
    name: 'OpenAPI POST /openapi/v1/events/audit/search?includeRaw=true',
    request: () => post('/openapi/v1/events/audit/search?includeRaw=true&size=1000', {}),
  },
  ...['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1', 'MetadataChangeLog_Timeseries_v1'].map(
    (topic) => ({
      name: `OpenAPI GET /openapi/v1/events/poll?topic=${topic} (every event of the last day)`,
      request: () =>
        get(`/openapi/v1/events/poll?topic=${topic}&lookbackWindowDays=1&limit=5000&pollTimeoutSeconds=0`),
    }),
  ),
  { name: 'GET /actuator/prometheus', request: () => get('/actuator/prometheus') },
  {
    name: 'OpenAPI GET /openapi/operations/throttle/requests',
    request: () => get('/openapi/operations/throttle/requests'),
  },
  {
    name: 'OpenAPI POST /openapi/v1/trace/write/{traceId} (every seeded entity, its restricted aspect)',
    request: (seed) =>
      post(
        '/openapi/v1/trace/write/00000000000000000000000000000001?onlyIncludeErrors=false&detailed=true',
        Object.fromEntries([
          ...TARGETS.map((t) => [urnOf(seed, t), [t.aspect]]),
          [seed.dataset, ['datasetProperties']],
        ]),
      ),
  },
  {
    name: 'OpenAPI GET /openapi/v1/registry/models/entity/specifications (every entity)',
    request: () => get('/openapi/v1/registry/models/entity/specifications?count=1000'),
  },
  {
    name: 'OpenAPI POST /openapi/operations/elasticSearch/entity/raw (every seeded entity)',
    request: (seed) =>
      post('/openapi/operations/elasticSearch/entity/raw', [
        ...TARGETS.map((t) => urnOf(seed, t)),
        seed.dataset,
      ]),
  },
];

/** What the walk asks of each entity GraphQL returns: its urn, its raw aspects and its named fields. */
const ENTITY_FIELDS = `
  urn
  type
  ... on CorpUser { username aspects { aspectName payload } }
  ... on AccessTokenMetadata { name actorUrn ownerUrn aspects { aspectName payload } }
  ... on Dataset { aspects { aspectName payload } }
`;

const graphqlRow = (name: string, query: string, variables: (seed: WalkSeed) => Record<string, unknown>) => ({
  name: `GraphQL ${name}`,
  request: (seed: WalkSeed): WalkRequest =>
    post('/api/graphql', {
      query: query.includes('...Seen') ? `fragment Seen on Entity { ${ENTITY_FIELDS} } ${query}` : query,
      variables: variables(seed),
    }),
});

const SEARCH_TYPES: readonly (readonly string[] | undefined)[] = [['ACCESS_TOKEN'], ['CORP_USER'], undefined];
const typesLabel = (types: readonly string[] | undefined) =>
  types === undefined ? 'default types' : types.join(',');

/** Every target is asked for; those GraphQL has no type for (`graphql: false`) answer null. */
const GRAPHQL: readonly ReadRoute[] = [
  ...TARGETS.map((t) =>
    graphqlRow(
      `entity(urn: {${t.key}})`,
      'query($urn: String!) { entity(urn: $urn) { ...Seen } }',
      (seed) => ({
        urn: urnOf(seed, t),
      }),
    ),
  ),
  graphqlRow(
    'entities(urns: every seeded)',
    'query($urns: [String!]!) { entities(urns: $urns) { ...Seen } }',
    (seed) => ({ urns: TARGETS.map((t) => urnOf(seed, t)) }),
  ),
  graphqlRow(
    'corpUser(urn: {user}) { aspects { payload } }',
    'query($urn: String!) { corpUser(urn: $urn) { urn aspects { aspectName payload } } }',
    (seed) => ({ urn: seed.user }),
  ),
  graphqlRow(
    'corpUser(urn: {user}) { aspects(aspectNames: [corpUserCredentials]) { payload } }',
    `query($urn: String!) {
      corpUser(urn: $urn) { urn aspects(input: { aspectNames: ["corpUserCredentials"] }) { aspectName payload } }
    }`,
    (seed) => ({ urn: seed.user }),
  ),
  graphqlRow(
    'corpUser(urn: {user}) { relationships(IsMemberOfRole) }',
    `query($urn: String!) {
      corpUser(urn: $urn) {
        relationships(input: { types: ["IsMemberOfRole"], direction: OUTGOING }) { relationships { entity { ...Seen } } }
      }
    }`,
    (seed) => ({ urn: seed.user }),
  ),
  graphqlRow(
    'getTimeline(urn: {dataset})',
    `query($urn: String!) {
      getTimeline(input: { urn: $urn }) {
        changeTransactions { actor versionStamp changes { urn modifier description parameters { key value } } }
      }
    }`,
    (seed) => ({ urn: seed.dataset }),
  ),
  graphqlRow(
    'listUsers',
    'query { listUsers(input: { start: 0, count: 100 }) { users { ...Seen } } }',
    () => ({}),
  ),
  graphqlRow(
    'listUsers(query: walk)',
    'query { listUsers(input: { start: 0, count: 100, query: "walk" }) { users { ...Seen } } }',
    () => ({}),
  ),
  ...SEARCH_TYPES.map((types) =>
    graphqlRow(
      `searchAcrossEntities(${typesLabel(types)})`,
      `query($input: SearchAcrossEntitiesInput!) {
        searchAcrossEntities(input: $input) {
          searchResults { entity { ...Seen } matchedFields { name value } }
          facets { field aggregations { value count } }
        }
      }`,
      () => ({ input: { ...(types === undefined ? {} : { types }), query: '*', start: 0, count: 100 } }),
    ),
  ),
  graphqlRow(
    'searchAcrossEntities(ACCESS_TOKEN, query: walk)',
    `query { searchAcrossEntities(input: { types: [ACCESS_TOKEN], query: "walk", count: 100 }) {
      searchResults { entity { ...Seen } matchedFields { name value } } } }`,
    () => ({}),
  ),
  ...SEARCH_TYPES.map((types) =>
    graphqlRow(
      `scrollAcrossEntities(${typesLabel(types)})`,
      `query($input: ScrollAcrossEntitiesInput!) {
        scrollAcrossEntities(input: $input) { searchResults { entity { ...Seen } matchedFields { name value } } }
      }`,
      () => ({ input: { ...(types === undefined ? {} : { types }), query: '*', count: 100 } }),
    ),
  ),
  graphqlRow(
    'search(type: CORP_USER)',
    'query { search(input: { type: CORP_USER, query: "*", count: 100 }) { searchResults { entity { ...Seen } } } }',
    () => ({}),
  ),
  graphqlRow(
    'aggregateAcrossEntities(ACCESS_TOKEN, CORP_USER)',
    `query { aggregateAcrossEntities(input: { types: [ACCESS_TOKEN, CORP_USER], query: "*" }) {
      facets { field aggregations { value count entity { ...Seen } } } } }`,
    () => ({}),
  ),
  graphqlRow(
    'getEntityCounts(ACCESS_TOKEN, CORP_USER, DATASET)',
    'query { getEntityCounts(input: { types: [ACCESS_TOKEN, CORP_USER, DATASET] }) { counts { entityType count } } }',
    () => ({}),
  ),
  graphqlRow(
    'dataset(urn: {dataset}) { privileges }',
    'query($urn: String!) { dataset(urn: $urn) { urn privileges { canEditTags canEditOwners canEditDescription } } }',
    (seed) => ({ urn: seed.dataset }),
  ),
  graphqlRow(
    'autoComplete(CORP_USER)',
    'query { autoComplete(input: { type: CORP_USER, query: "walk", limit: 100 }) { suggestions entities { ...Seen } } }',
    () => ({}),
  ),
  graphqlRow(
    'autoCompleteForMultiple(ACCESS_TOKEN, CORP_USER)',
    `query { autoCompleteForMultiple(input: { types: [ACCESS_TOKEN, CORP_USER], query: "walk", limit: 100 }) {
      suggestions { type suggestions entities { ...Seen } } } }`,
    () => ({}),
  ),
  // Of the seeded types, only datasets have browse paths.
  ...['DATASET'].map((type) =>
    graphqlRow(
      `browseV2(${type})`,
      `query { browseV2(input: { type: ${type}, path: [], start: 0, count: 100 }) {
        groups { name entity { ...Seen } } } }`,
      () => ({}),
    ),
  ),
  graphqlRow(
    'listAccessTokens',
    'query { listAccessTokens(input: { start: 0, count: 100 }) { tokens { urn id name actorUrn ownerUrn } } }',
    () => ({}),
  ),
  graphqlRow(
    'searchDocuments',
    `query { searchDocuments(input: { query: "*", count: 100 }) {
      documents { ...Seen info { title contents { text } } } facets { field aggregations { value count } } } }`,
    () => ({}),
  ),
  graphqlRow(
    'dataset(urn: {dataset}) { relatedDocuments }',
    `query($urn: String!) { dataset(urn: $urn) { relatedDocuments(input: { count: 100 }) { documents { ...Seen } } } }`,
    (seed) => ({ urn: seed.dataset }),
  ),
  graphqlRow(
    'listLifecycleStages',
    'query { listLifecycleStages { urn name description entityTypes hideInSearch } }',
    () => ({}),
  ),
  graphqlRow('me', 'query { me { corpUser { ...Seen } } }', () => ({})),
  graphqlRow('getInviteToken', 'query { getInviteToken(input: {}) { inviteToken } }', () => ({})),
  graphqlRow('getHighlights', 'query { getHighlights { title value body } }', () => ({})),
  graphqlRow(
    'getAnalyticsCharts',
    `query { getAnalyticsCharts { groupId charts { ... on TableChart { title rows { values cells { value entity { urn } } } }
      ... on BarChart { title bars { name segments { label value } } } } } }`,
    () => ({}),
  ),
  graphqlRow(
    'getMetadataAnalyticsCharts',
    'query { getMetadataAnalyticsCharts(input: {}) { charts { ... on BarChart { title bars { name } } } } }',
    () => ({}),
  ),
  graphqlRow(
    'listIngestionSources { executions { input { arguments } result } }',
    `query { listIngestionSources(input: { start: 0, count: 20 }) { ingestionSources { urn
      executions(start: 0, count: 20) { executionRequests { urn id input { task arguments { key value } } result { status report } } } } } }`,
    () => ({}),
  ),
];

const mcpRow = (
  name: string,
  tool: string,
  args: (seed: WalkSeed) => Record<string, unknown>,
): ReadRoute => ({
  name: `MCP ${name}`,
  request: (seed) => ({
    method: 'POST',
    path: '/mcp',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args(seed) } },
    headers: { Accept: 'application/json, text/event-stream' },
  }),
});

/** The MCP tools that read entities: every target by urn, and the searches that could list them. */
const MCP: readonly ReadRoute[] = [
  ...TARGETS.map((t) =>
    mcpRow(`get_entities({${t.key}})`, 'get_entities', (seed) => ({ urns: urnOf(seed, t) })),
  ),
  mcpRow('get_entities(every seeded, dataset)', 'get_entities', (seed) => ({
    urns: [...TARGETS.map((t) => urnOf(seed, t)), seed.dataset],
  })),
  mcpRow('search(*)', 'search', () => ({ query: '*', num_results: 50 })),
  mcpRow('search(entity_type = corp_user)', 'search', () => ({
    query: '*',
    filter: 'entity_type = corp_user',
    num_results: 50,
  })),
  mcpRow('search(walk)', 'search', () => ({ query: 'walk', num_results: 50 })),
  mcpRow('list_schema_fields({dataset})', 'list_schema_fields', (seed) => ({ urn: seed.dataset })),
];

export const READ_ROUTES: readonly ReadRoute[] = [...RESTLI, ...OPENAPI, ...GRAPHQL, ...MCP];
