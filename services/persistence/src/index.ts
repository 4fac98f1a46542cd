export { startPersistence, type PersistenceDeps, type PersistenceService } from './persistence-service.js';
export {
  applyProposals,
  type ApplyOptions,
  type ProposalEffects,
  type FailedProposal,
} from './apply-proposals.js';
export {
  readPersistenceConfig,
  readPersistenceSection,
  type PersistenceConfig,
  type PersistenceSettings,
} from './config.js';
export { DEFAULT_ACTOR } from './proposal-record.js';
