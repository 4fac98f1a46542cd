import { isDomainError, UnavailableError } from '@catalog/model';

/** Client error names of a dependency that could not be reached or did not answer, with what it is. */
const UNREACHABLE_BY_NAME: ReadonlyMap<string, string> = new Map([
  ...['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError'].map(
    (name) => [name, 'The search engine (OpenSearch)'] as const,
  ),
  ...[
    'MongoNetworkError',
    'MongoNetworkTimeoutError',
    'MongoServerSelectionError',
    'MongoPoolClearedError',
    'MongoNotConnectedError',
    'MongoTopologyClosedError',
  ].map((name) => [name, 'The aspect store (MongoDB)'] as const),
  ...[
    'KafkaJSConnectionError',
    'KafkaJSConnectionClosedError',
    'KafkaJSRequestTimeoutError',
    'KafkaJSBrokerNotFound',
    'KafkaJSNumberOfRetriesExceeded',
    'KafkaJSLockTimeout',
  ].map((name) => [name, 'The event log (Kafka)'] as const),
]);

/** Error codes of SQLite that say the embedded database is busy or cannot be written now. */
const SQLITE_UNAVAILABLE = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
]);

/** Statuses of a search engine that is there but cannot serve now (overloaded, starting, a proxy). */
const BUSY = new Set([429, 502, 503, 504]);

/** Socket error codes of a dependency that is not there. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * The outage an error reports, as an UnavailableError naming what is down; undefined when it is not an
 * outage. A domain UnavailableError is itself; otherwise an adapter's client error that escaped its
 * translation (a search engine, store or log that cannot be reached, a busy embedded database) is
 * recognised by name or code, so that every interface answers 503 for it, never 500, and every
 * consumer retries it rather than setting the record aside (see classifyFailure).
 */
export function outageOf(error: unknown, depth = 0): UnavailableError | undefined {
  if (isDomainError(error)) return error instanceof UnavailableError ? error : undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  // The caller is told what is down, not the client's message (it can name internal hosts).
  const { name, code, meta } = error as { name?: unknown; code?: unknown; meta?: { statusCode?: unknown } };
  const what = typeof name === 'string' ? UNREACHABLE_BY_NAME.get(name) : undefined;
  if (what !== undefined) return new UnavailableError(`${what} is unavailable`, { cause: error });
  if (name === 'ResponseError' && typeof meta?.statusCode === 'number' && BUSY.has(meta.statusCode))
    return new UnavailableError(
      `The search engine (OpenSearch) is unavailable: it answered ${meta.statusCode}`,
      { cause: error },
    );
  if (typeof code === 'string' && (SQLITE_UNAVAILABLE.has(code) || code.startsWith('SQLITE_IOERR')))
    return new UnavailableError(`The embedded database (SQLite) is unavailable: ${code}`, { cause: error });
  if (typeof code === 'string' && SOCKET_CODES.has(code))
    return new UnavailableError(`A dependency of the service is unreachable: ${code}`, { cause: error });
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && depth < 5 ? outageOf(cause, depth + 1) : undefined;
}
