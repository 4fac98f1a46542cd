import {
  createLogger,
  describeAdapters,
  Lifecycle,
  openAspectStore,
  openEventLog,
  openSearchAdapters,
  runAtNice,
  runMain,
  startConsumerHealth,
} from '@catalog/runtime';
import { readIndexerConfig } from './config.js';
import { startIndexer } from './indexer-service.js';

const config = readIndexerConfig(process.env);
const logger = createLogger({ name: 'indexer', level: config.logLevel });
runAtNice(config.nice, logger);

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const store = await openAspectStore(config.adapters, logger);
  lifecycle.onClose('aspect store', () => store.close());
  const indices = await openSearchAdapters(config.adapters, logger);
  lifecycle.onClose('search indices', () => indices.close());
  const health = await startConsumerHealth({
    port: config.healthPort,
    dependencies: { store, search: indices.search, log },
    logger,
    lifecycle,
  });
  const service = await startIndexer({
    log,
    store,
    ...indices,
    topics: config.adapters.topics,
    logger,
    groupId: config.groupId,
    maxBatchSize: config.maxBatchSize,
    batchWaitMs: config.batchWaitMs,
    maxAttempts: config.maxAttempts,
    structuredProperties: config.structuredProperties,
  });
  lifecycle.onClose('indexer consumer', () => service.stop());
  await service.ready;
  health.consuming(service);
  logger.info({ groupId: config.groupId, ...describeAdapters(config.adapters) }, 'indexer consuming');
  return lifecycle;
});
