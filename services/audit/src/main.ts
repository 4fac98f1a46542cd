import { openAuditIndex, runConsumerService } from '@catalog/runtime';
import { readAuditConfig } from './config.js';
import { startAuditConsumer } from './audit-service.js';

const config = readAuditConfig(process.env);

await runConsumerService('audit', config, async ({ log, lifecycle, logger }) => {
  const audit = await openAuditIndex(config.adapters, logger, { retentionDays: config.retentionDays });
  lifecycle.onClose('audit index', () => audit.close());
  return {
    dependencies: { search: audit },
    describe: { retentionDays: config.retentionDays },
    start: () =>
      startAuditConsumer({
        log,
        audit,
        topics: config.adapters.topics,
        logger,
        groupId: config.groupId,
        maxBatchSize: config.maxBatchSize,
        batchWaitMs: config.batchWaitMs,
        maxAttempts: config.maxAttempts,
        recordedEventTypes: config.recordedEventTypes,
        actorFilters: config.actorFilters,
      }),
  };
});
