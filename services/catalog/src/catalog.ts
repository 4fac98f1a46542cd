import { composeGateway, startHttpServer } from '@catalog/gateway';
import { startIndexer } from '@catalog/indexer';
import { startPersistence } from '@catalog/persistence';
import {
  describeAdapters,
  InProcessOutcomeChannel,
  Lifecycle,
  openAspectStore,
  openEventLog,
  openSchemaResolver,
  openSearchAdapters,
  type Logger,
  type SearchAdapters,
} from '@catalog/runtime';
import { createEventDecoder, type EventLog } from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import type { CatalogConfig } from './config.js';

export interface RunningCatalog {
  readonly port: number;
  readonly lifecycle: Lifecycle;
  /** The adapters in use, for operational tooling and tests that look behind the HTTP interface. */
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly readModels: SearchAdapters;
  close(): Promise<void>;
}

/**
 * Starts gateway, persistence and indexer in this process over the configured adapters (embedded by
 * default). Outcomes pass in-process; everything else goes through the event log exactly as when
 * the services run apart.
 */
export async function startCatalog(config: CatalogConfig, logger: Logger): Promise<RunningCatalog> {
  const lifecycle = new Lifecycle(logger);
  try {
    const log = await openEventLog(config.adapters, logger);
    lifecycle.onClose('event log', () => log.close());
    const store = await openAspectStore(config.adapters, logger);
    lifecycle.onClose('aspect store', () => store.close());
    const readModels = await openSearchAdapters(config.adapters, logger);
    lifecycle.onClose('search indices', () => readModels.close());
    const outcomes = new InProcessOutcomeChannel();
    lifecycle.onClose('outcome channel', () => outcomes.close());

    const schemas = await openSchemaResolver(config.adapters, log, logger);
    lifecycle.onClose('schema resolver', () => schemas.close());
    const persistence = await startPersistence({
      decoder: createEventDecoder(schemas.resolver),
      log,
      store,
      outcomes,
      topics: config.adapters.topics,
      logger: logger.child({ component: 'persistence' }),
      groupId: config.persistence.groupId,
      maxBatchSize: config.persistence.maxBatchSize,
    });
    lifecycle.onClose('persistence consumer', () => persistence.stop());
    const indexer = await startIndexer({
      log,
      store,
      search: readModels.search,
      graph: readModels.graph,
      timeseries: readModels.timeseries,
      topics: config.adapters.topics,
      logger: logger.child({ component: 'indexer' }),
      groupId: config.indexer.groupId,
      maxBatchSize: config.indexer.maxBatchSize,
    });
    lifecycle.onClose('indexer consumer', () => indexer.stop());
    await Promise.all([persistence.ready, indexer.ready]);

    const app = composeGateway({
      adapters: config.adapters,
      log,
      store,
      readModels,
      outcomes,
      logger: logger.child({ component: 'gateway' }),
      settings: config.http,
      syncTimeoutMs: config.syncTimeoutMs,
      groups: { persistence: config.persistence.groupId, indexer: config.indexer.groupId },
    });
    const server = await startHttpServer(app, config.port, config.host);
    lifecycle.onClose('http', () => server.close());
    logger.info({ port: server.port, ...describeAdapters(config.adapters) }, 'catalog listening');
    return { port: server.port, lifecycle, log, store, readModels, close: () => lifecycle.close() };
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
}
