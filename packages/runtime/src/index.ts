export { ConfigError, EnvReader } from './env-reader.js';
export { childLogger, createLogger, REDACTED_PATHS, type Logger, type LoggerSettings } from './logger.js';
export { Lifecycle, runMain, type Closer } from './lifecycle.js';
export {
  dependencyChecks,
  Readiness,
  type CheckResult,
  type Pingable,
  type ReadinessCheck,
  type ReadinessOptions,
  type ReadinessReport,
} from './health/readiness.js';
export { sendLiveness, sendReadiness, startHealthServer, type HealthServer } from './health/health-server.js';
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
  embeddedTopicRetention,
  readRetentionSettings,
  type RetentionSettings,
} from './retention-settings.js';
export {
  DEFAULT_SQLITE_CACHE_BYTES,
  readSqliteCacheBytes,
  sqliteCacheKiB,
  type EmbeddedFile,
} from './sqlite-cache-settings.js';
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
export {
  LogOutcomeChannel,
  OUTCOME_HEADERS,
  type LogOutcomeChannelOptions,
  type OutcomeListenerStats,
} from './outcomes/log-outcome-channel.js';
export { PendingOutcomes } from './outcomes/pending-outcomes.js';
export {
  changeLogForStored,
  changeLogForTimeseries,
  changeLogForTimeseriesDelete,
  systemMetadataFor,
  undecodableProposal,
} from './change-log.js';
export { runAtNice } from './process-priority.js';
export { processMemory, threadMemory, type ProcessMemory, type ThreadMemory } from './process-memory.js';
export {
  readConsumerConfig,
  readConsumerSettings,
  readHealthPort,
  readLogLevel,
  readProcessNice,
  type ConsumerConfig,
  type ConsumerDefaults,
  type ConsumerRole,
  type ConsumerSettings,
} from './service-config.js';
export * from './consumer-failures/index.js';
export {
  startConsumerHealth,
  type ConsumerHealth,
  type HealthReportingConsumer,
} from './health/consumer-health.js';
export { outageOf } from './outage.js';
export { runConsumerService, type ConsumerServiceParts, type RunningConsumer } from './consumer-service.js';
