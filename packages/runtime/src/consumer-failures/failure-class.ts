import { isDomainError } from '@catalog/model';
import { outageOf } from '../outage.js';

/**
 * How a consumer treats a handler failure (one policy for every group):
 * - transient: a dependency is unreachable or too slow; retried with backoff, never skipped;
 * - deterministic: the record can never be applied; dead-lettered at once, and the partition moves on;
 * - unknown: retried a bounded number of times, then dead-lettered.
 */
export type FailureClass = 'transient' | 'deterministic' | 'unknown';

export interface ClassifiedFailure {
  readonly failureClass: FailureClass;
  /** One line for the dead letter and the log: the error's name and message. */
  readonly reason: string;
}

/**
 * Beyond what outageOf recognises as a dependency that is down (the same errors the interfaces answer
 * 503 for): a request the client aborted on a timeout, a connection cut mid-request, a host name not
 * resolved for now.
 */
const TRANSIENT_NAMES = new Set(['RequestAbortedError', 'AbortError']);
const TRANSIENT_CODES = new Set(['ECONNABORTED', 'ENOTFOUND']);

/** Kafka's error types for a record the broker will never take. */
const DETERMINISTIC_KAFKA_TYPES = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD']);

/** Domain error codes that say the record itself is wrong, whenever it is tried. */
const DETERMINISTIC_CODES = new Set(['VALIDATION', 'SCHEMA_VALIDATION', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND']);

/**
 * A record a consumer recognises as one it can never apply (not decodable, not the event it should be):
 * thrown by a handler so the failure policy dead-letters it instead of skipping it in silence.
 */
export class UnprocessableRecordError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnprocessableRecordError';
  }
}

/** Error names of records that can never be decoded, applied or produced. */
const DETERMINISTIC_NAMES = new Set([
  'SerdeError',
  'RecordTooLargeError',
  'SyntaxError',
  'UnprocessableRecordError',
]);

interface ErrorShape {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly type?: unknown;
  readonly retriable?: unknown;
  readonly statusCode?: unknown;
  readonly meta?: { readonly statusCode?: unknown };
  readonly failures?: readonly { readonly status?: unknown }[];
  readonly cause?: unknown;
}

/** An HTTP status of the search engine the error carries (a response error, or every failed bulk item's). */
function statusesOf(error: ErrorShape): number[] {
  if (Array.isArray(error.failures)) {
    return error.failures.map((f) => (typeof f.status === 'number' ? f.status : 500));
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : error.meta?.statusCode;
  return typeof status === 'number' ? [status] : [];
}

function classOf(error: unknown, depth: number): FailureClass {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const shape = error as ErrorShape;
  if (isDomainError(error)) {
    if (error.code === 'UNAVAILABLE') return 'transient';
    if (DETERMINISTIC_CODES.has(error.code)) return 'deterministic';
  }
  const name = typeof shape.name === 'string' ? shape.name : '';
  if (DETERMINISTIC_NAMES.has(name)) return 'deterministic';
  if (typeof shape.type === 'string' && DETERMINISTIC_KAFKA_TYPES.has(shape.type)) return 'deterministic';
  if (TRANSIENT_NAMES.has(name) || outageOf(error) !== undefined) return 'transient';
  if (typeof shape.code === 'string' && TRANSIENT_CODES.has(shape.code)) return 'transient';
  if (shape.retriable === true) return 'transient';
  const statuses = statusesOf(shape);
  if (statuses.length > 0) {
    // 429 (too many requests) and 5xx are the engine's trouble; 4xx is the record's (a mapping
    // conflict, a keyword too long, a document over the engine's limit).
    if (statuses.some((s) => s === 429 || s >= 500)) return 'transient';
    if (statuses.every((s) => s >= 400 && s < 500)) return 'deterministic';
  }
  if (depth < 5 && shape.cause !== undefined) {
    const inner = classOf(shape.cause, depth + 1);
    if (inner !== 'unknown') return inner;
  }
  return 'unknown';
}

/** Classifies a handler failure by what it says about the record and its dependencies. */
export function classifyFailure(error: unknown): ClassifiedFailure {
  const reason =
    error instanceof Error ? `${error.name}: ${error.message}` : `non-error thrown: ${String(error)}`;
  return { failureClass: classOf(error, 0), reason: reason.slice(0, 4000) };
}
