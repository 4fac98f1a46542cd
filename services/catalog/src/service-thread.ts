/**
 * Entry point of a consumer's worker thread in the all-in-one catalog (persistence, indexer or audit):
 * its store and index writes then run on another core instead of the HTTP event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startAuditConsumer } from '@catalog/audit';
import { startChangeEventProducer } from '@catalog/change-events';
import { createEventDecoder } from '@catalog/events';
import { startIndexer } from '@catalog/indexer';
import { retentionPoliciesFor, startPersistence } from '@catalog/persistence';
import {
  childLogger,
  createLogger,
  openAspectStore,
  openAuditIndex,
  openEventLog,
  openSchemaResolver,
  openSearchAdapters,
  runAtNice,
  threadMemory,
  type Closer,
  type OutcomeChannel,
  type ProposalOutcome,
} from '@catalog/runtime';
import type { CatalogConfig } from './config.js';
import type { ThreadKind, ThreadMessage } from './thread-messages.js';

const { config, kind } = workerData as { config: CatalogConfig; kind: ThreadKind };
const port = parentPort;
if (!port) throw new Error('service-thread runs only as a worker thread');
const rootLogger = createLogger({ name: 'catalog', level: config.logLevel });
const logger = childLogger(rootLogger, { component: kind });
// Each part at its own priority, as it runs alone: the indexer and the audit consumer keep eventually
// consistent read models and by default yield the CPU to the write path under load.
runAtNice(config.nice[kind], logger);
const post = (message: ThreadMessage): void => port.postMessage(message);

/** Hands outcomes to the main thread, where the gateway's requests wait for them. */
const outcomesToMain: OutcomeChannel = {
  publish: (outcomes: readonly ProposalOutcome[]) => {
    if (outcomes.length > 0) post({ type: 'outcomes', outcomes });
    return Promise.resolve();
  },
  expect: () => Promise.reject(new Error('outcomes are awaited on the main thread')),
  forget: () => undefined,
  close: () => Promise.resolve(),
};

const closers: Closer[] = [];
const log = await openEventLog(config.adapters, logger);
closers.push(() => log.close());

if (kind === 'audit') {
  const audit = await openAuditIndex(config.adapters, logger, { retentionDays: config.audit.retentionDays });
  closers.push(() => audit.close());
  const service = await startAuditConsumer({
    log,
    audit,
    topics: config.adapters.topics,
    logger,
    groupId: config.audit.groupId,
    maxBatchSize: config.audit.maxBatchSize,
    batchWaitMs: config.audit.batchWaitMs,
    maxAttempts: config.audit.maxAttempts,
    recordedEventTypes: config.audit.recordedEventTypes,
    actorFilters: config.audit.actorFilters,
  });
  closers.push(() => service.stop());
  // The change event producer shares the audit consumer's thread: both only read the change logs.
  const changeEvents = await startChangeEventProducer({
    log,
    topics: config.adapters.topics,
    logger: childLogger(rootLogger, { component: 'change-events' }),
    groupId: config.changeEvents.groupId,
    maxBatchSize: config.changeEvents.maxBatchSize,
    batchWaitMs: config.changeEvents.batchWaitMs,
    maxAttempts: config.changeEvents.maxAttempts,
  });
  closers.push(() => changeEvents.stop());
  await Promise.all([service.ready, changeEvents.ready]);
} else if (kind === 'persistence') {
  const store = await openAspectStore(config.adapters, logger);
  closers.push(() => store.close());
  const schemas = await openSchemaResolver(config.adapters, log, logger);
  closers.push(() => schemas.close());
  // Read only: the search side's qualified-name holders (hard-deleted properties' leftover mappings).
  const readModels = await openSearchAdapters(config.adapters, logger);
  closers.push(() => readModels.close());
  const service = await startPersistence({
    log,
    store,
    outcomes: outcomesToMain,
    topics: config.adapters.topics,
    logger,
    groupId: config.persistence.groupId,
    maxBatchSize: config.persistence.maxBatchSize,
    batchWaitMs: config.persistence.batchWaitMs,
    maxAttempts: config.persistence.maxAttempts,
    maxMessageBytes: config.adapters.maxMessageBytes,
    structuredProperties: config.persistence.structuredProperties,
    propertyNames: readModels.search,
    retention: retentionPoliciesFor(config.persistence.retention),
    decoder: createEventDecoder(schemas.resolver),
  });
  closers.push(() => service.stop());
  await service.ready;
} else {
  const store = await openAspectStore(config.adapters, logger);
  closers.push(() => store.close());
  const readModels = await openSearchAdapters(config.adapters, logger);
  closers.push(() => readModels.close());
  const service = await startIndexer({
    log,
    store,
    search: readModels.search,
    graph: readModels.graph,
    timeseries: readModels.timeseries,
    ...(readModels.projection ? { projection: readModels.projection } : {}),
    topics: config.adapters.topics,
    logger,
    groupId: config.indexer.groupId,
    maxBatchSize: config.indexer.maxBatchSize,
    batchWaitMs: config.indexer.batchWaitMs,
    maxAttempts: config.indexer.maxAttempts,
    structuredProperties: config.indexer.structuredProperties,
  });
  closers.push(() => service.stop());
  await service.ready;
}
post({ type: 'ready' });

port.on('message', (message: ThreadMessage) => {
  if (message.type === 'memory?') {
    post({ type: 'memory', id: message.id, memory: threadMemory(kind) });
    return;
  }
  if (message.type !== 'stop') return;
  void (async () => {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        logger.error({ err: error }, 'close failed');
      }
    }
    post({ type: 'stopped' });
    port.close();
  })();
});
