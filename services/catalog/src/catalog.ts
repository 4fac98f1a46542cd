import { startAuditConsumer } from '@catalog/audit';
import { startChangeEventProducer } from '@catalog/change-events';
import { composeGateway, startHttpServer } from '@catalog/gateway';
import { startIndexer } from '@catalog/indexer';
import { retentionPoliciesFor, startPersistence } from '@catalog/persistence';
import { startWebhookDispatcher } from '@catalog/webhooks';
import { awaitIdentityBootstrap, bootstrapIdentity, bootstrapTypeEntities } from '@catalog/system-update';
import {
  childLogger,
  describeAdapters,
  InProcessOutcomeChannel,
  Lifecycle,
  openAspectStore,
  openAuditIndex,
  openEventLog,
  openSchemaResolver,
  openSearchAdapters,
  type Logger,
  type SearchAdapters,
  type ThreadMemory,
} from '@catalog/runtime';
import type { AuditIndex } from '@catalog/search';
import { createEventDecoder, type EventLog, type TopicNames } from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import type { CatalogConfig } from './config.js';
import { startServiceWorker } from './service-worker.js';

export interface RunningCatalog {
  readonly port: number;
  readonly lifecycle: Lifecycle;
  /** The adapters in use, for operational tooling and tests that look behind the HTTP interface. */
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly readModels: SearchAdapters;
  /** The audit index the gateway's audit search reads (the audit consumer writes it). */
  readonly audit: AuditIndex;
  /** The topic names in use (configurable per catalog). */
  readonly topics: TopicNames;
  close(): Promise<void>;
}

/**
 * Starts gateway, persistence, indexer and audit consumer in this process over the configured adapters
 * (embedded by default). Outcomes pass in-process; everything else goes through the event log exactly as when
 * the services run apart.
 */
export async function startCatalog(config: CatalogConfig, logger: Logger): Promise<RunningCatalog> {
  const lifecycle = new Lifecycle(logger);
  try {
    const log = await openEventLog(config.adapters, logger);
    lifecycle.onClose('event log', () => log.close());
    const store = await openAspectStore(config.adapters, logger);
    lifecycle.onClose('aspect store', () => store.close());
    const readModels = await openSearchAdapters(config.adapters, logger, { servesSearches: true });
    lifecycle.onClose('search indices', () => readModels.close());
    const audit = await openAuditIndex(config.adapters, logger, {
      retentionDays: config.audit.retentionDays,
    });
    lifecycle.onClose('audit index', () => audit.close());
    const outcomes = new InProcessOutcomeChannel();
    lifecycle.onClose('outcome channel', () => outcomes.close());

    const consumers = config.consumerThreads
      ? startConsumerThreads(config, logger, outcomes)
      : await startConsumersHere(config, logger, { log, store, readModels, audit, outcomes });
    lifecycle.onClose('consumers', () => consumers.stop());
    await consumers.ready;
    // The data-type and entity-type entities structured properties refer to, as system-update
    // bootstraps them for the distributed services: proposed when missing (one store read when not).
    await bootstrapTypeEntities({
      log,
      store,
      topic: config.adapters.topics.metadataChangeProposal,
      logger: childLogger(logger, { component: 'bootstrap' }),
    });
    // The root user, roles and default policies, as system-update bootstraps them; the catalog waits
    // until they are stored (a rotated root password too), so a login right after the start works.
    // The configuration, secrets included, was validated before anything here was opened.
    const identity = await bootstrapIdentity({
      log,
      store,
      topic: config.adapters.topics.metadataChangeProposal,
      logger: childLogger(logger, { component: 'bootstrap' }),
      rootPassword: config.auth.rootPassword,
    });
    await awaitIdentityBootstrap(store, logger, {
      ...(identity.rootCredentials === undefined ? {} : { rootCredentials: identity.rootCredentials }),
    });

    const gateway = await composeGateway({
      adapters: config.adapters,
      log,
      store,
      readModels,
      audit,
      outcomes,
      logger: childLogger(logger, { component: 'gateway' }),
      settings: config.http,
      auth: config.auth,
      instanceId: config.instanceId,
      syncTimeoutMs: config.syncTimeoutMs,
      threads: () => consumers.threads(),
      groups: {
        persistence: config.persistence.groupId,
        indexer: config.indexer.groupId,
        audit: config.audit.groupId,
      },
    });
    lifecycle.onClose('gateway', () => gateway.close());
    if (config.webhookDispatcher.enabled) {
      const dispatcher = await startWebhookDispatcher({
        log,
        topics: config.adapters.topics,
        source: gateway.webhookSource,
        settings: config.webhookDispatcher.delivery,
        logger: childLogger(logger, { component: 'webhooks' }),
        groupId: config.webhookDispatcher.groupId,
      });
      lifecycle.onClose('webhook dispatcher', () => dispatcher.stop());
      await dispatcher.ready;
    }
    const server = await startHttpServer(gateway.app, config.port, config.host, {
      requestTimeoutMs: config.requestTimeoutMs,
    });
    lifecycle.onClose('http', () => server.close());
    // Closed before HTTP (closers run in reverse): HTTP waits for open event streams to end.
    lifecycle.onClose('event streams', () => gateway.closeStreams());
    logger.info({ port: server.port, ...describeAdapters(config.adapters) }, 'catalog listening');
    return {
      port: server.port,
      lifecycle,
      log,
      store,
      readModels,
      audit,
      topics: config.adapters.topics,
      close: () => lifecycle.close(),
    };
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
}

interface Consumers {
  readonly ready: Promise<void>;
  /** What the consumer threads report of their memory (none when the consumers run on this thread). */
  threads(): Promise<readonly ThreadMemory[]>;
  stop(): Promise<void>;
}

/** Persistence, indexer and audit consumer on worker threads: the HTTP event loop keeps a core of its own. */
function startConsumerThreads(
  config: CatalogConfig,
  logger: Logger,
  outcomes: InProcessOutcomeChannel,
): Consumers {
  const persistence = startServiceWorker('persistence', config, logger, (o) => void outcomes.publish(o));
  const indexer = startServiceWorker('indexer', config, logger);
  const audit = startServiceWorker('audit', config, logger);
  return {
    ready: Promise.all([persistence.ready, indexer.ready, audit.ready]).then(() => undefined),
    threads: async () =>
      (await Promise.all([persistence.memory(), indexer.memory(), audit.memory()])).filter(
        (m): m is ThreadMemory => m !== undefined,
      ),
    // Persistence first: the other two then see its last change logs now or at the next start.
    stop: async () => {
      await persistence.stop();
      await Promise.all([indexer.stop(), audit.stop()]);
    },
  };
}

/** Persistence, indexer and audit consumer on this thread (CATALOG_CONSUMER_THREADS=false). */
async function startConsumersHere(
  config: CatalogConfig,
  logger: Logger,
  parts: {
    log: EventLog;
    store: AspectStore;
    readModels: SearchAdapters;
    audit: AuditIndex;
    outcomes: InProcessOutcomeChannel;
  },
): Promise<Consumers> {
  const { log, store, readModels, audit, outcomes } = parts;
  const schemas = await openSchemaResolver(config.adapters, log, logger);
  const persistence = await startPersistence({
    decoder: createEventDecoder(schemas.resolver),
    log,
    store,
    outcomes,
    topics: config.adapters.topics,
    logger: childLogger(logger, { component: 'persistence' }),
    groupId: config.persistence.groupId,
    maxBatchSize: config.persistence.maxBatchSize,
    batchWaitMs: config.persistence.batchWaitMs,
    maxAttempts: config.persistence.maxAttempts,
    maxMessageBytes: config.adapters.maxMessageBytes,
    structuredProperties: config.persistence.structuredProperties,
    propertyNames: readModels.search,
    retention: retentionPoliciesFor(config.persistence.retention),
  });
  const indexer = await startIndexer({
    log,
    store,
    search: readModels.search,
    graph: readModels.graph,
    timeseries: readModels.timeseries,
    ...(readModels.projection ? { projection: readModels.projection } : {}),
    topics: config.adapters.topics,
    logger: childLogger(logger, { component: 'indexer' }),
    groupId: config.indexer.groupId,
    maxBatchSize: config.indexer.maxBatchSize,
    batchWaitMs: config.indexer.batchWaitMs,
    maxAttempts: config.indexer.maxAttempts,
    structuredProperties: config.indexer.structuredProperties,
  });
  const auditConsumer = await startAuditConsumer({
    log,
    audit,
    topics: config.adapters.topics,
    logger: childLogger(logger, { component: 'audit' }),
    groupId: config.audit.groupId,
    maxBatchSize: config.audit.maxBatchSize,
    batchWaitMs: config.audit.batchWaitMs,
    maxAttempts: config.audit.maxAttempts,
    recordedEventTypes: config.audit.recordedEventTypes,
    actorFilters: config.audit.actorFilters,
  });
  const changeEvents = await startChangeEventProducer({
    log,
    topics: config.adapters.topics,
    logger: childLogger(logger, { component: 'change-events' }),
    groupId: config.changeEvents.groupId,
    maxBatchSize: config.changeEvents.maxBatchSize,
    batchWaitMs: config.changeEvents.batchWaitMs,
    maxAttempts: config.changeEvents.maxAttempts,
  });
  return {
    ready: Promise.all([persistence.ready, indexer.ready, auditConsumer.ready, changeEvents.ready]).then(
      () => undefined,
    ),
    threads: () => Promise.resolve([]),
    stop: async () => {
      await persistence.stop();
      await indexer.stop();
      await auditConsumer.stop();
      await changeEvents.stop();
      await schemas.close();
    },
  };
}
