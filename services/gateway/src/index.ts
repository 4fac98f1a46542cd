export { createGatewayApp, type GatewayDeps, type GatewaySettings, type ReadModels } from './app.js';
export { composeGateway, type GatewayParts } from './compose-gateway.js';
export { readGatewayConfig, readGatewaySection, SERVER_VERSION, type GatewayConfig } from './config.js';
export { startHttpServer, type RunningServer } from './http-server.js';
export { ProposalSubmitter, toMcp, type ProposalSubmitterDeps } from './ingest/proposal-submitter.js';
export { IndexWaiter } from './ingest/index-waiter.js';
export { WAIT_FOR_INDEX_HEADER } from './restli/ingest-proposal.js';
export { composeWebhookSource, type WebhookSourceParts } from './compose-webhook-source.js';
