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
      switch (level) {
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
