export { ConfigError, EnvReader } from './env-reader.js';
export { createLogger, REDACTED_PATHS, type Logger, type LoggerSettings } from './logger.js';
export { Lifecycle, runMain, type Closer } from './lifecycle.js';
export {
  describeAdapters,
  readAdapterSettings,
  type AdapterSettings,
  type KafkaSettings,
  type MongoSettings,
} from './adapter-settings.js';
export { openAspectStore, openEventLog } from './adapters.js';
export type { OutcomeChannel, ProposalOutcome } from './outcomes/outcome.js';
export { InProcessOutcomeChannel } from './outcomes/in-process-outcome-channel.js';
export { LogOutcomeChannel, type LogOutcomeChannelOptions } from './outcomes/log-outcome-channel.js';
export { PendingOutcomes } from './outcomes/pending-outcomes.js';
