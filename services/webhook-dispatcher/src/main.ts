import { composeWebhookSource } from '@catalog/gateway';
import { LogOutcomeChannel, openAspectStore, runConsumerService } from '@catalog/runtime';
import { startWebhookDispatcher } from '@catalog/webhooks';
import { readWebhookDispatcherConfig } from './config.js';

const config = readWebhookDispatcherConfig(process.env);

await runConsumerService('webhook-dispatcher', config, async ({ log, lifecycle, logger }) => {
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
  const source = composeWebhookSource({
    adapters: config.adapters,
    log,
    store,
    outcomes,
    auth: config.auth,
    syncTimeoutMs: config.syncTimeoutMs,
    logger,
  });
  return {
    start: () =>
      startWebhookDispatcher({
        log,
        topics: config.adapters.topics,
        source,
        settings: config.delivery,
        logger,
        groupId: config.groupId,
      }),
  };
});
