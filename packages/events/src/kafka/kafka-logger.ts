import { logLevel, type logCreator } from 'kafkajs';
import type { EventLogLogger } from '../event-log-logger.js';

/** kafkajs's own level names, for the option that sets how much of kafkajs's logging to pass on. */
export type KafkaLogLevel = 'error' | 'warn' | 'info' | 'debug' | 'nothing';

const KAFKAJS_LEVELS: Readonly<Record<KafkaLogLevel, logLevel>> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

export function kafkajsLevel(level: KafkaLogLevel): logLevel {
  return KAFKAJS_LEVELS[level];
}

/**
 * Bridges kafkajs's logging into a pino-style logger: one structured line per kafkajs entry, at the
 * matching level, with kafkajs's namespace (Consumer, Runner, Connection...) and its extra fields as context.
 */
export function kafkaLogCreator(logger: EventLogLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const context = { kafkajs: namespace, ...extra };
      const text = typeof message === 'string' ? message : String(message);
      switch (answeredToCaller(namespace, text) ? logLevel.DEBUG : level) {
        case logLevel.ERROR:
          logger.error(context, text);
          break;
        case logLevel.WARN:
          logger.warn(context, text);
          break;
        case logLevel.INFO:
          logger.info(context, text);
          break;
        default:
          logger.debug(context, text);
      }
    };
}

/**
 * kafkajs's Connection logs every error response of the broker at ERROR, including the expected ones
 * (TOPIC_ALREADY_EXISTS when a service ensures its topics, NOT_LEADER right after a topic is created).
 * The same error is always thrown to the caller, which retries it or reports it, so these are debug lines.
 * So is kafkajs's warning about the producer's bounded retries, which is a choice (see below).
 */
function answeredToCaller(namespace: string, text: string): boolean {
  return (
    (namespace === 'Connection' && text.startsWith('Response ')) ||
    (namespace === 'Producer' && text.startsWith(BOUNDED_RETRIES_WARNING))
  );
}

/**
 * Deliberate: the producer's retries are bounded so a write fails (and the client sees a 503) while the
 * brokers are gone, instead of hanging; a retried write is deduplicated by the store on its request id.
 */
const BOUNDED_RETRIES_WARNING = 'Limiting retries for the idempotent producer';
