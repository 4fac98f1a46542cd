import {
  createLogger,
  describeAdapters,
  Lifecycle,
  LogOutcomeChannel,
  openAspectStore,
  openEventLog,
  openSchemaResolver,
  openSearchAdapters,
  runAtNice,
  runMain,
  startConsumerHealth,
} from '@catalog/runtime';
import { createEventDecoder } from '@catalog/events';
import { readPersistenceConfig } from './config.js';
import { retentionPoliciesFor } from './retention-settings.js';
import { startPersistence } from './persistence-service.js';

const config = readPersistenceConfig(process.env);
const logger = createLogger({ name: 'persistence', level: config.logLevel });
runAtNice(config.nice, logger);

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const store = await openAspectStore(config.adapters, logger);
  lifecycle.onClose('aspect store', () => store.close());
  const outcomes = await LogOutcomeChannel.open({
    log,
    topic: config.adapters.topics.proposalOutcome,
    logger,
  });
  const schemas = await openSchemaResolver(config.adapters, log, logger);
  lifecycle.onClose('schema resolver', () => schemas.close());
  // Read only: the search side's qualified-name holders (hard-deleted properties' leftover mappings).
  const readModels = await openSearchAdapters(config.adapters, logger);
  lifecycle.onClose('search indices', () => readModels.close());
  const health = await startConsumerHealth({
    port: config.healthPort,
    dependencies: { store, search: readModels.search, log },
    logger,
    lifecycle,
    stats: () => ({ store: store.workStats?.() ?? null }),
  });
  const service = await startPersistence({
    decoder: createEventDecoder(schemas.resolver),
    log,
    store,
    outcomes,
    topics: config.adapters.topics,
    logger,
    groupId: config.groupId,
    maxBatchSize: config.maxBatchSize,
    batchWaitMs: config.batchWaitMs,
    maxAttempts: config.maxAttempts,
    maxMessageBytes: config.adapters.maxMessageBytes,
    structuredProperties: config.structuredProperties,
    propertyNames: readModels.search,
    retention: retentionPoliciesFor(config.retention),
  });
  lifecycle.onClose('persistence consumer', () => service.stop());
  await service.ready;
  health.consuming(service);
  logger.info({ groupId: config.groupId, ...describeAdapters(config.adapters) }, 'persistence consuming');
  return lifecycle;
});
