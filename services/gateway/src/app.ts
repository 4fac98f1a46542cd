import express, { type Express, type Request, type Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { EventLog, TopicNames } from '@catalog/events';
import type { AuditIndex, GraphIndex, SearchIndex, TimeseriesIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import {
  dependencyChecks,
  Readiness,
  sendLiveness,
  sendReadiness,
  type Logger,
  type ReadinessCheck,
  type ThreadMemory,
} from '@catalog/runtime';
import { requestLogging } from './request-log/request-logging.js';
import { jsonBodyParser } from './http/json-body.js';
import { writeJsonAsTheEcosystem } from './http/json-response.js';
import { enforceResponseSizeLimits, responseSizeLimit } from './http/response-size-limit.js';

/** MAX_RESPONSE_BYTES when the settings leave it out. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
import type { ProposalSubmitter } from './ingest/proposal-submitter.js';
import type { ProposalOutcome } from '@catalog/runtime';
import { mountGraphQL } from './graphql/graphql-endpoint.js';
import { createCatalogApplication, type CatalogApplication } from './application/catalog-application.js';
import type { WebhookSettings } from './application/webhook-admin.js';
import type { GraphQLLimits } from './graphql/bounds/graphql-limits.js';
import type { EventStreamSettings } from './graphql/subscriptions/event-stream.js';
import type { ChangeEventFeed } from './application/change-event-stream.js';
import type { ChangeSubscriptionLimits } from './application/change-subscriptions.js';
import { stringify as stringifyYaml } from 'yaml';
import { API_GROUPS, type ApiGroup } from './api-contract/operation.js';
import { requestValidator } from './api-contract/catalog-validator.js';
import { openApiDocument } from './openapi/document/openapi-document.js';
import { sendOpenApiError } from './openapi/openapi-errors.js';
import { API_DOCS_OPERATION } from './operations/operation-endpoints.js';
import { restliDocsPage } from './openapi/document/restli-docs.js';
import { mountSwaggerUi } from './openapi/swagger-ui/swagger-ui-routes.js';
import { entityApiRouter } from './openapi/entity-api/entity-router.js';
import { getRelationshipsV1 } from './openapi/relationships/relationships-v1.js';
import { flattenConfiguration } from './application/system-info.js';
import { systemInfoRouter } from './operations/system-info-routes.js';
import { platformEntitiesRouter } from './openapi/platform-entities/platform-entities-v1.js';
import { getAspectCountAction } from './restli/aspects-count-action.js';
import { edgeScrollRouter } from './openapi/edge-scroll/edge-scroll-router.js';
import { timeseriesApiRouter } from './openapi/timeseries/timeseries-v2.js';
import { timelineApiRouter } from './openapi/timeline/timeline-router.js';
import { TIMELINE_V1_OPERATION, TIMELINE_V2_OPERATION } from './openapi/timeline/timeline-operations.js';
import { auditEventsRouter } from './openapi/audit-events/audit-search-router.js';
import { eventsPollRouter } from './openapi/events-poll/events-poll-router.js';
import type { ConsumerGroups } from './application/consumer-lag.js';
import { mountIndexDocumentRoutes } from './operations/index-document-routes.js';
import { mountOperationRoutes } from './operations/operation-routes.js';
import { mountMetricsRoutes } from './operations/metrics-routes.js';
import { consumerLagSamples } from './application/consumer-lag.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import { requestMetrics } from './metrics/request-metrics.js';
import { countResponseBodies } from './metrics/response-bytes.js';
import { timedPort } from './metrics/timed-port.js';
import { requestContextIfAny, requestContextOf } from './auth/request-context.js';
import type { IndexWaiter } from './ingest/index-waiter.js';
import { registryModelsRouter } from './openapi/registry/registry-router.js';
import { trackingRouter } from './openapi/tracking/tracking-router.js';
import {
  OPENLINEAGE_BASE_PATH,
  openLineageRouter,
  sendOpenLineageUnauthenticated,
} from './openapi/openlineage/openlineage-router.js';
import type { OpenLineageSettings } from './application/openlineage/openlineage-settings.js';
import { traceApiRouter } from './openapi/trace/trace-router.js';
import type { FailedWrites } from './application/write-traces.js';
import {
  ingestProposal,
  ingestProposalBatch,
  type IngestContext,
  type IngestSettings,
} from './restli/ingest-proposal.js';
import {
  batchGetEntitiesV2,
  batchGetEntitySnapshots,
  getEntitySnapshot,
  getEntityV2,
  getVersionedAspect,
} from './restli/entity-reads.js';
import { getRelationships } from './restli/relationships.js';
import { deleteEntityAction, deleteReferencesAction } from './restli/entity-delete.js';
import { ingestEntityAction } from './restli/entities-ingest-action.js';
import { batchIngestEntitiesAction } from './restli/entities-batch-ingest-action.js';
import { existsEntityAction } from './restli/entities-exists-action.js';
import { getBrowsePathsAction } from './restli/entities-browse-paths-action.js';
import { listEntitiesAction, listUrnsAction } from './restli/entities-list-action.js';
import { batchEvaluateAction, evaluateAction } from './restli/metadata-tests.js';
import { restoreIndices } from './restli/restore-indices.js';
import { describeRun, listRuns, rollbackRunAction } from './restli/runs/run-listing.js';
import { restliErrorHandler, sendRestliError } from './restli/restli-errors.js';
import { autocompleteAction, browseAction, searchAction } from './restli/search-actions.js';
import { getTimeseriesAspectValues } from './restli/timeseries-values.js';
import { getTimeseriesStats } from './restli/timeseries-stats.js';
import { schemaRegistryRouter } from './schema-registry/schema-registry-router.js';
import { configUserType, serverConfig } from './server-config.js';
import type { GatewayAuth } from './auth/gateway-auth.js';
import { authenticationMiddleware } from './auth/authentication-middleware.js';
import { corsPolicy } from './auth/cors-policy.js';
import { crossSiteRequestGuard } from './auth/cross-site-request-guard.js';
import { identityUserUrn } from './auth/identity-endpoint.js';
import { gmsAuthRouter, loginRouter } from './identity/auth-router.js';
import { mcpRouter } from './mcp/mcp-router.js';
import type { McpSettings } from './mcp/mcp-server.js';
import type { NativeUserService } from './application/native-user-service.js';
import { mountWebApp } from './web/web-app.js';

export interface GatewaySettings extends IngestSettings {
  readonly maxBodyBytes: number;
  /** MAX_RESPONSE_BYTES: the most a Rest.li or OpenAPI response carries (GraphQL has its own). */
  readonly maxResponseBytes?: number;
  /** Version reported at /config. */
  readonly serverVersion: string;
  /** DATAHUB_ANALYTICS_ENABLED: whether the analytics charts are served (true when absent). */
  readonly analyticsEnabled?: boolean;
  /** UI_INGESTION_DEFAULT_CLI_VERSION: the CLI release /config names for managed ingestion (the pinned one when absent). */
  readonly defaultCliVersion?: string;
  /** How long a write with X-Wait-For-Index waits for the indexer. */
  readonly indexWaitTimeoutMs: number;
  /** TRUSTED_PROXIES: addresses or CIDRs whose X-Forwarded-For is believed (express's `trust proxy`). */
  readonly trustedProxies: readonly string[];
  /** CORS_ALLOWED_ORIGINS: the only origins whose pages may call with credentials (none by default). */
  readonly corsAllowedOrigins: readonly string[];
  /** What one GraphQL request may cost and return; the defaults when absent. */
  readonly graphql?: GraphQLLimits;
  /** The DATAHUB_OPENLINEAGE_* settings of the OpenLineage receiver; the ecosystem's defaults when absent. */
  readonly openLineage?: OpenLineageSettings;
  /** The MCP endpoint's edit tools and result size; edits off and 60,000 bytes when absent. */
  readonly mcp?: McpSettings;
  /** WEBHOOK_ALLOW_PRIVATE_DESTINATIONS and WEBHOOK_TIMEOUT_MS as the webhook operations use them. */
  readonly webhooks?: WebhookSettings;
  /** WEB_APP_DIR: the built web app served at `/` (none served when absent). */
  readonly webAppDir?: string;
  /** Live subscriptions' bounds and heartbeat (GRAPHQL_SUBSCRIPTION_*); the defaults when absent. */
  readonly subscriptions?: SubscriptionSettings;
}

/** How live subscriptions (GraphQL over Server-Sent Events) are bounded and kept alive. */
export interface SubscriptionSettings extends ChangeSubscriptionLimits, EventStreamSettings {}

export interface ReadModels {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
}

export interface GatewayDeps {
  readonly store: AspectStore;
  readonly log: EventLog;
  readonly topics: TopicNames;
  readonly groups: ConsumerGroups;
  readonly readModels: ReadModels;
  /** The audit events the audit search (`/openapi/v1/events/audit/search`) reads. */
  readonly audit: AuditIndex;
  /** Which event log carries the pipeline, as /openapi/operations/messaging/transport reports it. */
  readonly transport: 'kafka' | 'embedded';
  readonly submitter: ProposalSubmitter;
  readonly indexWaiter: IndexWaiter;
  /** The proposals persistence refused (the write trace reads them). */
  readonly failedWrites: FailedWrites;
  /** The change logs the indexer gave up on (the write trace reads them). */
  readonly failedIndexing: FailedWrites;
  readonly logger: Logger;
  readonly settings: GatewaySettings;
  readonly auth: GatewayAuth;
  readonly nativeUsers: NativeUserService;
  /** Checks `/health/ready` runs besides the store, search engine and log (e.g. consumer state). */
  readonly readinessChecks?: readonly ReadinessCheck[];
  /** The process's other JavaScript threads' memory, listed in the consumer-lag memory report. */
  readonly threads?: () => Promise<readonly ThreadMemory[]>;
  /** Given the application once built: what the composition hands to processes beside HTTP (the webhook dispatcher). */
  readonly onApplication?: (application: CatalogApplication) => void;
  /** The live tail of entity change events live subscriptions read (the caller closes it). */
  readonly changeFeed?: ChangeEventFeed;
}

type Handler = (req: Request, res: Response) => Promise<void> | void;

/** The MCP endpoint's settings when the caller gives none: read tools only, results up to 60,000 bytes. */
export const DEFAULT_MCP_SETTINGS: McpSettings = Object.freeze({
  mutationToolsEnabled: false,
  resultMaxBytes: 60_000,
});

/** Dispatches `?action=` of a Rest.li resource; an unknown action is a 400 naming the supported ones. */
function actions(resource: string, table: Record<string, Handler>): Handler {
  return async (req, res) => {
    const action = req.query['action'];
    const handler = typeof action === 'string' ? table[action] : undefined;
    if (!handler) {
      throw new ValidationError(
        `Unknown action ${JSON.stringify(action ?? null)} on /${resource}; supported: ${Object.keys(table).join(', ')}`,
      );
    }
    await handler(req, res);
  };
}

/** Builds the HTTP interface over the ports it is given; main.ts decides which adapters those are. */
export function createGatewayApp(deps: GatewayDeps): Express {
  const { settings, logger, auth } = deps;
  const metrics = new GatewayMetrics({
    messagingSystem: deps.transport,
    lag: () => consumerLagSamples({ log: deps.log, topics: deps.topics, groups: deps.groups }),
    ...(deps.threads ? { threads: deps.threads } : {}),
  });
  // The ports the application reads and writes through, each call timed in the metrics.
  const store = timedPort(deps.store, (operation) => metrics.storeTimer(operation));
  const timedIndex = <T extends object>(index: string, port: T): T =>
    timedPort(port, (operation) => metrics.indexTimer(index, operation));
  const readModels: ReadModels = {
    search: timedIndex('search', deps.readModels.search),
    graph: timedIndex('graph', deps.readModels.graph),
    timeseries: timedIndex('timeseries', deps.readModels.timeseries),
  };
  const audit = timedIndex('audit', deps.audit);
  const waitForIndex = (outcomes: readonly ProposalOutcome[]) =>
    deps.indexWaiter.waitFor(
      outcomes.flatMap((o) => o.changeLogs ?? []),
      settings.indexWaitTimeoutMs,
    );
  const application = createCatalogApplication({
    store,
    auth,
    ...(settings.defaultCliVersion === undefined ? {} : { defaultCliVersion: settings.defaultCliVersion }),
    submitter: deps.submitter,
    readModels,
    waitForIndex,
    log: deps.log,
    topics: deps.topics,
    nativeUsers: deps.nativeUsers,
    audit,
    failedWrites: deps.failedWrites,
    failedIndexing: deps.failedIndexing,
    logger,
    analyticsEnabled: settings.analyticsEnabled ?? true,
    ...(settings.openLineage ? { openLineage: settings.openLineage } : {}),
    ...(settings.webhooks === undefined ? {} : { webhooks: settings.webhooks }),
    ...(deps.changeFeed === undefined ? {} : { changeFeed: deps.changeFeed }),
    ...(settings.subscriptions === undefined ? {} : { subscriptionLimits: settings.subscriptions }),
    systemInfo: {
      version: settings.serverVersion,
      configuration: flattenConfiguration({
        http: settings,
        topics: deps.topics,
        consumerGroups: deps.groups,
        transport: deps.transport,
        // GraphQL decides every entity read (AccessPolicy): the ecosystem's view authorization, always on.
        authorization: { view: { enabled: true } },
      }),
    },
    operations: {
      log: deps.log,
      topics: deps.topics,
      groups: deps.groups,
      search: readModels.search,
      transport: deps.transport,
      logger,
      ...(deps.threads ? { threads: deps.threads } : {}),
    },
  });
  deps.onApplication?.(application);
  const app = express();
  // Defined once on the response prototype: the body count (metrics), then, outside it, the size
  // limit (a refused body is not counted; its replacement is).
  countResponseBodies(app.response);
  enforceResponseSizeLimits(app.response);
  writeJsonAsTheEcosystem(app.response);
  app.disable('x-powered-by');
  app.set('etag', false);
  // The recorded source IP: the socket's, unless it is a trusted proxy (then what it forwarded).
  app.set('trust proxy', settings.trustedProxies.length > 0 ? [...settings.trustedProxies] : false);
  // A body must say it is JSON (415 otherwise); see json-body.ts.
  const json = jsonBodyParser({ limit: settings.maxBodyBytes });
  // Rest.li actions also read a body without a Content-Type from a program (see untypedWhenAuthorized).
  const restliJson = jsonBodyParser({ limit: settings.maxBodyBytes, untypedWhenAuthorized: true });
  const ingest: IngestContext = { proposals: application.proposals, settings, waitForIndex };

  // First, so that every request gets its id and its line, whatever answers it.
  app.use(requestLogging(logger));
  app.use(
    requestMetrics(
      metrics,
      async (actorUrn) => (await auth.actors.actorState(actorUrn)).flags,
      requestContextIfAny,
      logger,
    ),
  );
  app.use((_req, res, next) => {
    res.setHeader('X-RestLi-Protocol-Version', '2.0.0');
    next();
  });
  const readiness = new Readiness([
    ...dependencyChecks({ store, search: readModels.search, log: deps.log }),
    ...(deps.readinessChecks ?? []),
  ]);

  // Browser safety: CORS before authentication (a preflight has no credentials), the cookie's
  // cross-site request forgery checks right after it (they need to know the credential was the cookie).
  app.use(corsPolicy(settings.corsAllowedOrigins));
  // Who acts, and where from, is established once here for every route after it.
  app.use(
    authenticationMiddleware(auth, logger, [
      { pathPrefix: `${OPENLINEAGE_BASE_PATH}/`, send: sendOpenLineageUnauthenticated },
    ]),
  );
  app.use(crossSiteRequestGuard(settings.corsAllowedOrigins));
  const authDeps = { sessions: application.sessions, logger, maxBodyBytes: settings.maxBodyBytes };
  app.use(
    responseSizeLimit(settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, (req, res, message) =>
      req.path.startsWith('/openapi/')
        ? sendOpenApiError(res, 400, { error: message })
        : sendRestliError(res, 400, message),
    ),
  );
  // The web app's pages and files, before the login routes: `/login` is its sign-in page.
  if (settings.webAppDir !== undefined) mountWebApp(app, settings.webAppDir);
  app.use(loginRouter(authDeps));
  app.use(gmsAuthRouter(authDeps));
  app.get('/openapi/operations/identity/user/urn', identityUserUrn);

  app.get('/health', (_req, res) => void res.status(200).end());
  // The ecosystem's web front end answers its own health check here, and clients probe it there.
  app.get('/admin', (_req, res) => void res.status(200).type('text/plain').send('GOOD'));
  app.get('/health/live', (_req, res) => sendLiveness(res));
  app.get('/health/ready', (_req, res) => sendReadiness(readiness, res));
  app.get('/config', (req, res) => {
    const config = serverConfig(settings.serverVersion, settings.defaultCliVersion);
    if (req.query['verbose'] === 'true')
      config['userType'] = configUserType(requestContextOf(res).authentication.actorId);
    res.json(config);
  });

  app.post(
    '/aspects',
    restliJson,
    actions('aspects', {
      ingestProposal: (req, res) => ingestProposal(req, res, ingest),
      ingestProposalBatch: (req, res) => ingestProposalBatch(req, res, ingest),
      getTimeseriesAspectValues: (req, res) => getTimeseriesAspectValues(req, res, application.timeseries),
      getCount: (req, res) => getAspectCountAction(req, res, application.aspectCounts),
    }),
  );
  app.post(
    '/analytics',
    restliJson,
    actions('analytics', {
      getTimeseriesStats: (req, res) => getTimeseriesStats(req, res, application.timeseries),
    }),
  );
  app.get('/aspects/:urn', (req, res) => getVersionedAspect(req, res, application.entities));
  app.get('/entitiesV2/:urn', (req, res) => getEntityV2(req, res, application.entities));
  app.get('/entitiesV2', (req, res) => batchGetEntitiesV2(req, res, application.entities));
  app.get('/entities/:urn', (req, res) => getEntitySnapshot(req, res, application.entities));
  app.get('/entities', (req, res) => batchGetEntitySnapshots(req, res, application.entities));
  app.post(
    '/entities',
    restliJson,
    actions('entities', {
      search: (req, res) => searchAction(req, res, application.catalogSearch),
      browse: (req, res) => browseAction(req, res, application.catalogSearch),
      autocomplete: (req, res) => autocompleteAction(req, res, application.catalogSearch),
      ingest: (req, res) => ingestEntityAction(req, res, ingest),
      batchIngest: (req, res) => batchIngestEntitiesAction(req, res, ingest),
      exists: (req, res) => existsEntityAction(req, res, application.entities),
      getBrowsePaths: (req, res) => getBrowsePathsAction(req, res, application.catalogSearch),
      list: (req, res) => listEntitiesAction(req, res, application.catalogSearch),
      listUrns: (req, res) => listUrnsAction(req, res, application.catalogSearch),
      delete: (req, res) => deleteEntityAction(req, res, application.deletion),
      deleteReferences: (req, res) => deleteReferencesAction(req, res, application.deletion),
    }),
  );
  app.get('/relationships', (req, res) => getRelationships(req, res, application.relationships));
  app.get(['/openapi/relationships/v1', '/openapi/relationships/v1/'], (req, res) =>
    getRelationshipsV1(req, res, application.relationships),
  );
  // Ingestion runs (the ecosystem's BatchIngestionRunResource).
  app.post(
    '/runs',
    restliJson,
    actions('runs', {
      list: (req, res) => listRuns(req, res, application.runs),
      describe: (req, res) => describeRun(req, res, application.runs),
      rollback: (req, res) => rollbackRunAction(req, res, application.runs),
    }),
  );
  for (const path of ['/operations', '/gms/operations', '/api/gms/operations']) {
    app.post(
      path,
      restliJson,
      actions(path.slice(1), {
        restoreIndices: (req, res) => restoreIndices(req, res, application.restore),
      }),
    );
  }
  // Metadata tests (spec 4.11): `/gms/test` as the ecosystem's Cloud has it, `/test` as its OSS engine.

  for (const path of ['/test', '/gms/test']) {
    app.post(
      path,
      restliJson,
      actions(path.slice(1), {
        evaluate: (req, res) => evaluateAction(req, res, application.testEvaluation),
        batchEvaluate: (req, res) => batchEvaluateAction(req, res, application.testEvaluation),
      }),
    );
  }
  mountOperationRoutes(app, application.operations, application.throttle);
  mountMetricsRoutes(app, metrics);
  mountIndexDocumentRoutes(app, application.indexDocuments, json);
  app.use('/openapi/v1/system-info', systemInfoRouter(application.systemInfo, logger));

  app.use('/schema-registry/api', schemaRegistryRouter({ topics: deps.topics, log: deps.log, logger }));
  const entityApi = { app: application, logger, maxBodyBytes: settings.maxBodyBytes };
  // Each document is built once, when first asked for (the whole one has a path per entity and aspect).
  const documents = new Map<string, { document: Record<string, unknown>; json?: string; yaml?: string }>();
  /** The document asked for, or undefined once a 400 naming an unknown group is sent. */
  const apiDocument = (req: Request, res: Response) => {
    let group: ApiGroup | undefined;
    try {
      group = requestValidator.input(API_DOCS_OPERATION, req).query['group'] as ApiGroup | undefined;
    } catch (error) {
      sendOpenApiError(res, 400, { error: (error as Error).message });
      return undefined;
    }
    const key = group ?? '';
    let entry = documents.get(key);
    if (entry === undefined) documents.set(key, (entry = { document: openApiDocument(group) }));
    return entry;
  };
  app.get('/openapi/v3/api-docs', (req, res) => {
    const entry = apiDocument(req, res);
    if (entry === undefined) return;
    res.type('json').send((entry.json ??= JSON.stringify(entry.document)));
  });
  app.get('/openapi/v3/api-docs.yaml', (req, res) => {
    const entry = apiDocument(req, res);
    if (entry === undefined) return;
    res.type('application/yaml').send((entry.yaml ??= stringifyYaml(entry.document)));
  });
  let restliDocs: string | undefined;
  app.get('/restli/docs', (_req, res) => {
    res.type('html').send((restliDocs ??= restliDocsPage(openApiDocument('70-restli'))));
  });
  mountSwaggerUi(app, '/openapi/v3/api-docs', API_GROUPS);
  app.use('/openapi/v3/entity', entityApiRouter(entityApi, 'v3'));
  app.use('/openapi/v2/entity', entityApiRouter(entityApi, 'v2'));
  app.use(
    edgeScrollRouter({ scrolls: application.edgeScrolls, logger, maxBodyBytes: settings.maxBodyBytes }),
  );
  app.use(
    '/openapi/v2/platform/entities/v1',
    platformEntitiesRouter({
      proposals: application.proposals,
      logger,
      maxBodyBytes: settings.maxBodyBytes,
      maxBatchProposals: settings.maxBatchProposals,
    }),
  );
  app.use('/openapi/v2/timeseries', timeseriesApiRouter({ timeseries: application.timeseries, logger }));
  const timelineApi = { timeline: application.timeline, logger };
  app.use('/openapi/v2/timeline/v1', timelineApiRouter(timelineApi, TIMELINE_V2_OPERATION));
  app.use('/openapi/timeline/v1', timelineApiRouter(timelineApi, TIMELINE_V1_OPERATION));
  app.use('/openapi/v1/events', eventsPollRouter({ eventsPoll: application.eventsPoll, logger }));
  app.use(
    '/mcp',
    mcpRouter({
      app: application,
      settings: settings.mcp ?? DEFAULT_MCP_SETTINGS,
      serverVersion: settings.serverVersion,
      maxBodyBytes: settings.maxBodyBytes,
      logger,
    }),
  );
  app.use(
    '/openapi/v1/tracking',
    trackingRouter({ tracking: application.tracking, logger, maxBodyBytes: settings.maxBodyBytes }),
  );
  app.use(
    OPENLINEAGE_BASE_PATH,
    openLineageRouter({ ingest: application.openLineage, logger, maxBodyBytes: settings.maxBodyBytes }),
  );
  app.use(
    '/openapi/v1/registry/models',
    registryModelsRouter({ models: application.registryModels, logger }),
  );
  app.use(
    '/openapi/v1/trace',
    traceApiRouter({ traces: application.writeTraces, logger, maxBodyBytes: settings.maxBodyBytes }),
  );
  app.use(
    '/openapi/v1/events/audit',
    auditEventsRouter({
      audit: application.auditEvents,
      logger,
      maxBodyBytes: settings.maxBodyBytes,
    }),
  );

  mountGraphQL(
    app,
    {
      app: application,
      logger,
      serverConfig: serverConfig(settings.serverVersion, settings.defaultCliVersion),
    },
    {
      maxBodyBytes: settings.maxBodyBytes,
      ...(settings.graphql ? { limits: settings.graphql } : {}),
      ...(settings.subscriptions ? { eventStreams: settings.subscriptions } : {}),
    },
  );

  app.use((req: Request, res: Response) => {
    sendRestliError(res, 404, `No resource at ${req.method} ${req.path}`);
  });
  app.use(restliErrorHandler(logger));
  return app;
}
