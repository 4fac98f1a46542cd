import {
  LogOutcomeChannel,
  openAspectStore,
  openSchemaResolver,
  openSearchAdapters,
  runConsumerService,
} from '@catalog/runtime';
import { createEventDecoder } from '@catalog/events';
import { readPersistenceConfig } from './config.js';
import { retentionPoliciesFor } from './retention-settings.js';
import { startPersistence } from './persistence-service.js';

const config = readPersistenceConfig(process.env);

await runConsumerService('persistence', config, async ({ log, lifecycle, logger }) => {
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
  return {
    dependencies: { store, search: readModels.search },
    stats: () => ({ store: store.workStats?.() ?? null }),
    start: () =>
      startPersistence({
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
      }),
  };
});
