import { randomUUID } from 'node:crypto';
import { createGatewayApp, ProposalSubmitter, startHttpServer } from '@catalog/gateway';
import { startPersistence } from '@catalog/persistence';
import {
  describeAdapters,
  InProcessOutcomeChannel,
  Lifecycle,
  openAspectStore,
  openEventLog,
  type Logger,
} from '@catalog/runtime';
import type { EventLog } from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import type { CatalogConfig } from './config.js';

export interface RunningCatalog {
  readonly port: number;
  readonly lifecycle: Lifecycle;
  /** The adapters in use, for operational tooling and tests that look behind the HTTP interface. */
  readonly log: EventLog;
  readonly store: AspectStore;
  close(): Promise<void>;
}

/**
 * Starts gateway and persistence in this process over the configured adapters (embedded by default).
 * Outcomes pass in-process; everything else goes through the event log exactly as when distributed.
 */
export async function startCatalog(config: CatalogConfig, logger: Logger): Promise<RunningCatalog> {
  const lifecycle = new Lifecycle(logger);
  try {
    const log = await openEventLog(config.adapters, logger);
    lifecycle.onClose('event log', () => log.close());
    const store = await openAspectStore(config.adapters, logger);
    lifecycle.onClose('aspect store', () => store.close());
    const outcomes = new InProcessOutcomeChannel();
    lifecycle.onClose('outcome channel', () => outcomes.close());

    const persistence = await startPersistence({
      log,
      store,
      outcomes,
      topics: config.adapters.topics,
      logger: logger.child({ component: 'persistence' }),
      groupId: config.persistence.groupId,
      maxBatchSize: config.persistence.maxBatchSize,
    });
    lifecycle.onClose('persistence consumer', () => persistence.stop());
    await persistence.ready;

    const submitter = new ProposalSubmitter({
      log,
      topic: config.adapters.topics.metadataChangeProposal,
      outcomes,
      syncTimeoutMs: config.syncTimeoutMs,
      newRequestId: randomUUID,
    });
    const app = createGatewayApp({
      store,
      submitter,
      logger: logger.child({ component: 'gateway' }),
      settings: config.http,
    });
    const server = await startHttpServer(app, config.port, config.host);
    lifecycle.onClose('http', () => server.close());
    logger.info({ port: server.port, ...describeAdapters(config.adapters) }, 'catalog listening');
    return { port: server.port, lifecycle, log, store, close: () => lifecycle.close() };
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
}
