import { openAspectStore, openSearchAdapters, runConsumerService } from '@catalog/runtime';
import { readIndexerConfig } from './config.js';
import { startIndexer } from './indexer-service.js';

const config = readIndexerConfig(process.env);

await runConsumerService('indexer', config, async ({ log, lifecycle, logger }) => {
  const store = await openAspectStore(config.adapters, logger);
  lifecycle.onClose('aspect store', () => store.close());
  const indices = await openSearchAdapters(config.adapters, logger);
  lifecycle.onClose('search indices', () => indices.close());
  return {
    dependencies: { store, search: indices.search },
    start: () =>
      startIndexer({
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
      }),
  };
});
