import {
  createLogger,
  describeAdapters,
  Lifecycle,
  LogOutcomeChannel,
  openAspectStore,
  openAuditIndex,
  openEventLog,
  openSearchAdapters,
  runMain,
} from '@catalog/runtime';
import { composeGateway } from './compose-gateway.js';
import { readGatewayConfig } from './config.js';
import { startHttpServer } from './http-server.js';

const config = readGatewayConfig(process.env);
const logger = createLogger({ name: 'gateway', level: config.logLevel });

await runMain(logger, async () => {
  const lifecycle = new Lifecycle(logger);
  const log = await openEventLog(config.adapters, logger);
  lifecycle.onClose('event log', () => log.close());
  const store = await openAspectStore(config.adapters, logger);
  lifecycle.onClose('aspect store', () => store.close());
  const readModels = await openSearchAdapters(config.adapters, logger, { servesSearches: true });
  lifecycle.onClose('search indices', () => readModels.close());
  const audit = await openAuditIndex(config.adapters, logger);
  lifecycle.onClose('audit index', () => audit.close());
  await log.ensureTopics([{ name: config.adapters.topics.metadataChangeProposal }]);
  const outcomes = await LogOutcomeChannel.open({
    log,
    topic: config.adapters.topics.proposalOutcome,
    listenerId: config.instanceId,
    logger,
  });
  lifecycle.onClose('outcome channel', () => outcomes.close());
  const gateway = await composeGateway({
    adapters: config.adapters,
    log,
    store,
    readModels,
    audit,
    outcomes,
    logger,
    settings: config.http,
    auth: config.auth,
    instanceId: config.instanceId,
    syncTimeoutMs: config.syncTimeoutMs,
    groups: config.groups,
  });
  lifecycle.onClose('gateway', () => gateway.close());
  const server = await startHttpServer(gateway.app, config.port, config.host, {
    requestTimeoutMs: config.requestTimeoutMs,
  });
  lifecycle.onClose('http', () => server.close());
  // Closed before HTTP (closers run in reverse): HTTP waits for open event streams to end.
  lifecycle.onClose('event streams', () => gateway.closeStreams());
  logger.info({ port: server.port, ...describeAdapters(config.adapters) }, 'gateway listening');
  return lifecycle;
});
