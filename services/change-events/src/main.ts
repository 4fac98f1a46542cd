import {
  createLogger,
  describeAdapters,
  Lifecycle,
  openEventLog,
  runAtNice,
  runMain,
  startConsumerHealth,
} from '@catalog/runtime';
import { readChangeEventsConfig } from './config.js';
import { startChangeEventProducer } from './change-event-service.js';

const config = readChangeEventsConfig(process.env);
const logger = createLogger({ name: 'change-events', level: config.logLevel });
runAtNice(config.nice, logger);

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const health = await startConsumerHealth({
    port: config.healthPort,
    dependencies: { log },
    logger,
    lifecycle,
  });
  const service = await startChangeEventProducer({
    log,
    topics: config.adapters.topics,
    logger,
    groupId: config.groupId,
    maxBatchSize: config.maxBatchSize,
    batchWaitMs: config.batchWaitMs,
    maxAttempts: config.maxAttempts,
  });
  lifecycle.onClose('change event producer', () => service.stop());
  await service.ready;
  health.consuming(service);
  logger.info({ groupId: config.groupId, ...describeAdapters(config.adapters) }, 'change events consuming');
  return lifecycle;
});
