import { randomUUID } from 'node:crypto';
import {
  createLogger,
  describeAdapters,
  Lifecycle,
  LogOutcomeChannel,
  openAspectStore,
  openEventLog,
  runMain,
} from '@catalog/runtime';
import { createGatewayApp } from './app.js';
import { readGatewayConfig } from './config.js';
import { startHttpServer } from './http-server.js';
import { ProposalSubmitter } from './ingest/proposal-submitter.js';

const config = readGatewayConfig(process.env);
const logger = createLogger({ name: 'gateway', level: config.logLevel });

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const store = await openAspectStore(config.adapters, logger);
  lifecycle.onClose('aspect store', () => store.close());
  await log.ensureTopics([{ name: config.adapters.topics.metadataChangeProposal }]);
  const outcomes = await LogOutcomeChannel.open({
    log,
    topic: config.adapters.topics.proposalOutcome,
    listenerGroupId: `gateway-outcomes-${config.instanceId}`,
    logger,
  });
  lifecycle.onClose('outcome channel', () => outcomes.close());
  const submitter = new ProposalSubmitter({
    log,
    topic: config.adapters.topics.metadataChangeProposal,
    outcomes,
    syncTimeoutMs: config.syncTimeoutMs,
    newRequestId: randomUUID,
  });
  const app = createGatewayApp({ store, submitter, logger, settings: config.http });
  const server = await startHttpServer(app, config.port, config.host);
  lifecycle.onClose('http', () => server.close());
  logger.info({ port: server.port, ...describeAdapters(config.adapters) }, 'gateway listening');
  return lifecycle;
});
