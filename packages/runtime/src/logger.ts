import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Paths whose values never reach a log line: credentials in headers, config and bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.accessToken',
  '*.signingKey',
  '*.clientSecret',
  // Restricted aspect fields (credentials, reset and invite tokens, connection secrets), should a value
  // of one reach a line beside its urn.
  '*.hashedPassword',
  '*.salt',
  '*.passwordResetToken',
  '*.resetToken',
  '*.inviteToken',
  '*.encryptedBlob',
  'config.kafka.sasl',
  'config.opensearch.password',
  'config.mongodb.uri',
];

export interface LoggerSettings {
  readonly name: string;
  readonly level: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read them. */
  readonly destination?: NodeJS.WritableStream;
}

/** The one way to build a logger: pino JSON lines, with secrets redacted. */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    name: settings.name,
    level: settings.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { service: settings.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
