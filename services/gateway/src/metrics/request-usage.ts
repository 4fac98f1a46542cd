import type { RequestApi, UsageOperation } from './usage-operation.js';
import { graphqlUsageOperation } from './graphql-usage.js';

/** What a request is in the usage taxonomy; undefined for what the ecosystem leaves unrecorded. */
export interface RequestUsage {
  readonly api: RequestApi;
  readonly operation: UsageOperation;
}

/** The request as classification sees it: method, path without query, `?action=` and the parsed body. */
export interface ClassifiedRequest {
  readonly method: string;
  readonly path: string;
  readonly action?: string;
  readonly body?: unknown;
}

const GRAPHQL_PATHS = new Set(['/api/graphql', '/api/v2/graphql']);

/**
 * Classifies a request as the ecosystem's controllers tag theirs (`withUsageOperation`): GraphQL by its
 * operation (graphql-usage.ts), Rest.li by resource and action, OpenAPI by path and method. Health,
 * configuration, documentation, the explorer and the metrics themselves are not recorded, as there.
 */
export function requestUsage(req: ClassifiedRequest): RequestUsage | undefined {
  if (GRAPHQL_PATHS.has(req.path)) {
    if (req.method !== 'POST') return undefined;
    return { api: 'graphql', operation: graphqlUsageOperation(req.body) };
  }
  if (req.path.startsWith('/openapi/')) {
    const operation = openApiOperation(req.method, req.path);
    return operation === undefined ? undefined : { api: 'openapi', operation };
  }
  if (req.path.startsWith('/auth/') || AUTH_WRITES.has(req.path)) {
    const operation = authOperation(req.path);
    return operation === undefined ? undefined : { api: 'openapi', operation };
  }
  if (req.path.startsWith('/schema-registry/')) {
    return {
      api: 'openapi',
      operation: req.method === 'GET' || req.method === 'HEAD' ? 'other_read' : 'other_write',
    };
  }
  const operation = restliOperation(req.method, req.path, req.action);
  return operation === undefined ? undefined : { api: 'restli', operation };
}

const AUTH_WRITES = new Set(['/signUp', '/resetNativeUserCredentials', '/logIn', '/login', '/logOut']);

function authOperation(path: string): UsageOperation | undefined {
  if (path === '/auth/getSsoSettings' || path === '/auth/verifyNativeUserCredentials') return 'other_read';
  if (path === '/logOut' || path === '/logIn' || path === '/login') return undefined;
  return 'other_write';
}

function openApiOperation(method: string, path: string): UsageOperation | undefined {
  if (path.startsWith('/openapi/v3/api-docs') || path.startsWith('/openapi/swagger-ui')) return undefined;
  if (path.startsWith('/openapi/operations/')) {
    if (path.startsWith('/openapi/operations/identity/') || path.startsWith('/openapi/operations/dev/'))
      return 'other_read';
    if (path.startsWith('/openapi/operations/messaging/'))
      return method === 'GET' ? 'other_read' : 'other_operations';
    return method === 'GET' ? 'other_read' : 'other_operations';
  }
  if (path.startsWith('/openapi/v1/system-info') || path.startsWith('/openapi/v1/registry'))
    return 'other_read';
  if (path.startsWith('/openapi/v1/tracking/')) return 'other_write';
  if (path.startsWith('/openapi/v1/events/audit/')) return 'search_query';
  if (path.startsWith('/openapi/v1/events/poll')) return 'metadata_query';
  if (path.startsWith('/openapi/v1/trace/')) return 'metadata_read';
  if (/^\/openapi\/(v2\/)?timeline\//.test(path)) return 'metadata_query';
  if (path.startsWith('/openapi/v2/timeseries/')) return 'metadata_query';
  if (path.startsWith('/openapi/v3/lineage/')) return 'lineage_query';
  if (path.startsWith('/openapi/relationships/') || path.startsWith('/openapi/v3/relationship/'))
    return 'metadata_read';
  const entity = /^\/openapi\/(?:v[123]\/entity|v2\/platform\/entities)(\/.*)?$/.exec(path);
  if (entity) return entityApiOperation(method, entity[1] ?? '');
  return undefined;
}

/** `/openapi/v{2,3}/entity/...`: reads, scrolls, writes and deletes by method and path shape. */
function entityApiOperation(method: string, rest: string): UsageOperation {
  if (rest === '/scroll' || rest.endsWith('/scroll') || rest.startsWith('/search')) return 'search_query';
  if (rest.endsWith('/batchGet') || rest === '/generic/batchGet') return 'metadata_read';
  switch (method) {
    case 'GET':
    case 'HEAD':
      return 'metadata_read';
    case 'DELETE':
      // /{type}/{urn} deletes the entity, /{type}/{urn}/{aspect} one aspect.
      return rest.split('/').filter(Boolean).length >= 3 ? 'aspect_delete' : 'entity_delete';
    default:
      return 'metadata_ingest';
  }
}

const RESTLI_ACTIONS: Readonly<Record<string, Readonly<Record<string, UsageOperation>>>> = {
  aspects: {
    ingestProposal: 'metadata_ingest',
    ingestProposalBatch: 'metadata_ingest',
    getTimeseriesAspectValues: 'metadata_query',
    getCount: 'metadata_query',
  },
  entities: {
    search: 'search_query',
    searchAcrossEntities: 'search_query',
    scrollAcrossEntities: 'search_query',
    browse: 'search_query',
    autocomplete: 'search_query',
    getBrowsePaths: 'search_query',
    list: 'search_query',
    searchAcrossLineage: 'lineage_query',
    scrollAcrossLineage: 'lineage_query',
    ingest: 'metadata_ingest',
    batchIngest: 'metadata_ingest',
    exists: 'metadata_read',
    delete: 'entity_delete',
    deleteReferences: 'entity_delete',
    setWritable: 'other_operations',
    applyRetention: 'other_operations',
  },
  entitiesV2: {},
  runs: { list: 'other_read', describe: 'other_read', rollback: 'other_operations' },
  operations: { restoreIndices: 'other_operations' },
  analytics: { getTimeseriesStats: 'search_query' },
  usageStats: { batchIngest: 'metadata_ingest', query: 'metadata_query', queryRange: 'metadata_query' },
  platform: { producePlatformEvent: 'metadata_ingest' },
  test: { evaluate: 'other_operations', batchEvaluate: 'other_operations' },
};

const RESTLI_READS = new Set(['aspects', 'entities', 'entitiesV2', 'relationships', 'entitiesVersionedV2']);

function restliOperation(
  method: string,
  path: string,
  action: string | undefined,
): UsageOperation | undefined {
  const segments = path.split('/').filter(Boolean);
  const resource =
    segments[0] === 'gms' || segments[0] === 'api' ? segments[segments.length - 1] : segments[0];
  if (resource === undefined) return undefined;
  if (action !== undefined) {
    const actions = Object.hasOwn(RESTLI_ACTIONS, resource) ? RESTLI_ACTIONS[resource] : undefined;
    return actions !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
  }
  if (!RESTLI_READS.has(resource)) return undefined;
  if (method === 'GET') return 'metadata_read';
  if (method === 'DELETE') return 'entity_delete';
  return undefined;
}
