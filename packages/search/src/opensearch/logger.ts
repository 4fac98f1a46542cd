/**
 * The logging the OpenSearch adapters need: pino-style (context object first, then message), so a pino
 * logger or a child of it can be passed as is.
 */
export interface OpenSearchLogger {
  debug(context: Record<string, unknown>, message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

/** Drops everything: the default when the caller passes no logger. */
export const silentOpenSearchLogger: OpenSearchLogger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});
