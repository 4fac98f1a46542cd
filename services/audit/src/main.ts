import {
  createLogger,
  describeAdapters,
  Lifecycle,
  openAuditIndex,
  openEventLog,
  runAtNice,
  runMain,
  startConsumerHealth,
} from '@catalog/runtime';
import { readAuditConfig } from './config.js';
import { startAuditConsumer } from './audit-service.js';

const config = readAuditConfig(process.env);
const logger = createLogger({ name: 'audit', level: config.logLevel });
runAtNice(config.nice, logger);

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const audit = await openAuditIndex(config.adapters, logger, { retentionDays: config.retentionDays });
  lifecycle.onClose('audit index', () => audit.close());
  const health = await startConsumerHealth({
    port: config.healthPort,
    dependencies: { search: audit, log },
    logger,
    lifecycle,
  });
  const service = await startAuditConsumer({
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
  });
  lifecycle.onClose('audit consumer', () => service.stop());
  await service.ready;
  health.consuming(service);
  logger.info(
    { groupId: config.groupId, retentionDays: config.retentionDays, ...describeAdapters(config.adapters) },
    'audit consuming',
  );
  return lifecycle;
});
