import { composeWebhookSource } from '@catalog/gateway';
import {
  createLogger,
  describeAdapters,
  Lifecycle,
  LogOutcomeChannel,
  openAspectStore,
  openEventLog,
  runMain,
  startConsumerHealth,
} from '@catalog/runtime';
import { startWebhookDispatcher } from '@catalog/webhooks';
import { readWebhookDispatcherConfig } from './config.js';

const config = readWebhookDispatcherConfig(process.env);
const logger = createLogger({ name: 'webhook-dispatcher', level: config.logLevel });

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const store = await openAspectStore(config.adapters, logger);
  lifecycle.onClose('aspect store', () => store.close());
  await log.ensureTopics([
    { name: config.adapters.topics.metadataChangeProposal },
    { name: config.adapters.topics.proposalOutcome },
  ]);
  const outcomes = await LogOutcomeChannel.open({
    log,
    topic: config.adapters.topics.proposalOutcome,
    listenerId: config.instanceId,
    logger,
  });
  lifecycle.onClose('outcome channel', () => outcomes.close());
  const health = await startConsumerHealth({
    port: config.healthPort,
    dependencies: { log },
    logger,
    lifecycle,
  });
  const source = composeWebhookSource({
    adapters: config.adapters,
    log,
    store,
    outcomes,
    auth: config.auth,
    syncTimeoutMs: config.syncTimeoutMs,
    logger,
  });
  const dispatcher = await startWebhookDispatcher({
    log,
    topics: config.adapters.topics,
    source,
    settings: config.delivery,
    logger,
    groupId: config.groupId,
  });
  lifecycle.onClose('webhook dispatcher', () => dispatcher.stop());
  await dispatcher.ready;
  health.consuming(dispatcher);
  logger.info(
    { groupId: config.groupId, ...describeAdapters(config.adapters) },
    'webhook dispatcher delivering',
  );
  return lifecycle;
});
