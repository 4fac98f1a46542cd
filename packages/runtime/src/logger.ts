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
  const logger = settings.destination ? pino(options, settings.destination) : pino(options);
  roots.add(logger);
  return logger;
}

/** The loggers createLogger built: what childLogger builds a child from when a key is bound again. */
const roots = new WeakSet<object>();

/**
 * The one way to derive a logger: `parent` with `bindings` added, where a key the parent already binds
 * takes the new value. pino's own `child` only appends, so a key bound twice is printed twice
 * (`"component":"gateway","component":"auth"`): invalid for parsers that refuse duplicate keys and
 * read differently by the rest. When a key is bound again, the child is built from the root logger
 * with the parent's bindings merged with the new ones.
 *
 * The keys, so that nesting needs no replacing: `component` names the part of a process (the catalog's
 * gateway, persistence, indexer, audit and bootstrap, each consumer thread), `module` the piece inside
 * it (its event log, aspect store, search, auth); a deeper piece's `module` replaces its parent's.
 * Fields of a single line never repeat a bound key either (a closer is `closer`, not `component`).
 */
export function childLogger(parent: Logger, bindings: Readonly<Record<string, unknown>>): Logger {
  const inherited = parent.bindings();
  const root = Object.keys(bindings).some((key) => key in inherited) ? rootOf(parent) : undefined;
  if (root === undefined) return parent.child(bindings);
  const base = root.bindings();
  const merged: Record<string, unknown> = { ...inherited, ...bindings };
  for (const key of Object.keys(base)) if (merged[key] === base[key]) delete merged[key];
  const child = root.child(merged);
  if (parent.level !== root.level) child.level = parent.level;
  return child;
}

function rootOf(logger: Logger): Logger | undefined {
  // pino builds a child with Object.create(parent), so a child's root is on its prototype chain.
  for (let at: object | null = logger; at !== null; at = Object.getPrototypeOf(at) as object | null) {
    if (roots.has(at)) return at as Logger;
  }
  return undefined;
}
