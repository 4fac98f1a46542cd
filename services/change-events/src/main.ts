import { runConsumerService } from '@catalog/runtime';
import { readChangeEventsConfig } from './config.js';
import { startChangeEventProducer } from './change-event-service.js';

const config = readChangeEventsConfig(process.env);

await runConsumerService('change-events', config, async ({ log, logger }) => ({
  start: () =>
    startChangeEventProducer({
      log,
      topics: config.adapters.topics,
      logger,
      groupId: config.groupId,
      maxBatchSize: config.maxBatchSize,
      batchWaitMs: config.batchWaitMs,
      maxAttempts: config.maxAttempts,
    }),
}));
