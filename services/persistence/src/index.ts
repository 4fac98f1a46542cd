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
export {
  DEFAULT_RETENTION_POLICIES,
  KEEP_EVERY_VERSION,
  RetentionPolicies,
  type RetentionPolicy,
  type RetentionResolver,
} from './retention-policies.js';
export { retentionPoliciesFor } from './retention-settings.js';
export type { RetentionSettings } from './retention-settings.js';
