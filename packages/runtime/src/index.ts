export { ConfigError, EnvReader } from './env-reader.js';
export { createLogger, REDACTED_PATHS, type Logger, type LoggerSettings } from './logger.js';
export { Lifecycle, runMain, type Closer } from './lifecycle.js';
export { CHANGE_LOG_HEADERS, PROPOSAL_HEADERS, proposalRecord, SYSTEM_ACTOR } from './proposal-records.js';
export {
  defaultConsumerGroup,
  describeAdapters,
  readAdapterSettings,
  type AdapterSettings,
  type KafkaSettings,
  type MongoSettings,
  type OpenSearchSettings,
  redactUrl,
} from './adapter-settings.js';
export {
  openAspectStore,
  openAuditIndex,
  openEventLog,
  openSearchAdapters,
  type AuditIndexOptions,
  type SearchAdapters,
} from './adapters.js';
export { openSchemaResolver, type OpenedSchemaResolver } from './schema-resolver.js';
export type { OutcomeChannel, ProposalOutcome } from './outcomes/outcome.js';
export { InProcessOutcomeChannel } from './outcomes/in-process-outcome-channel.js';
export { LogOutcomeChannel, type LogOutcomeChannelOptions } from './outcomes/log-outcome-channel.js';
export { PendingOutcomes } from './outcomes/pending-outcomes.js';
export {
  changeLogForStored,
  changeLogForTimeseries,
  changeLogForTimeseriesDelete,
  systemMetadataFor,
  undecodableProposal,
} from './change-log.js';
export {
  readConsumerConfig,
  readConsumerSettings,
  readLogLevel,
  type ConsumerConfig,
  type ConsumerRole,
  type ConsumerSettings,
} from './service-config.js';
