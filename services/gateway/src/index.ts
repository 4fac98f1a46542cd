export { createGatewayApp, type GatewayDeps, type GatewaySettings } from './app.js';
export {
  readGatewayConfig,
  readGatewaySection,
  readLogLevel,
  SERVER_VERSION,
  type GatewayConfig,
} from './config.js';
export { startHttpServer, type RunningServer } from './http-server.js';
export { ProposalSubmitter, toMcp, type ProposalSubmitterDeps } from './ingest/proposal-submitter.js';
