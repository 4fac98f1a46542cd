import { UnavailableError } from '@catalog/model';
import { MongoBulkWriteError, MongoError, MongoNetworkError, MongoServerSelectionError } from 'mongodb';

const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoError && error.code === DUPLICATE_KEY;
}

/**
 * Positions (in the submitted order) of the documents an unordered insertMany/bulkWrite refused as
 * duplicates. Any other failure is rethrown: the batch did not complete and must be redelivered.
 *
 * The driver wraps a failure of its own (a connection closed, a pool cleared, a timeout) in a
 * MongoBulkWriteError too, with no write errors: nothing is known then about which documents were
 * written, so it is rethrown, never read as "no duplicates" (which once let a claim lost to a store
 * restart count as made, leaving a gap in an aspect's history).
 */
export function duplicateKeyIndexes(error: unknown): Set<number> {
  if (!(error instanceof MongoBulkWriteError) || isDriverFailure(error) || error.err !== undefined)
    throw error;
  const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  const indexes = new Set<number>();
  for (const writeError of errors) {
    if (writeError.code !== DUPLICATE_KEY) throw error;
    indexes.add(writeError.index);
  }
  return indexes;
}

/** A bulk write that failed in the driver (no write errors, no write-concern error), not at the server. */
function isDriverFailure(error: MongoBulkWriteError): boolean {
  const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  return errors.filter((e) => e !== undefined).length === 0 && error.err === undefined;
}

/** Labels and codes of the driver for a server that is unreachable, restarting or too slow. */
const RETRIABLE_LABELS = ['RetryableWriteError', 'ResetPool', 'NetworkError'];
const RETRIABLE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 50]);

/**
 * Network errors, timeouts and failovers become UnavailableError (retriable: the consumer redelivers
 * the batch, which is idempotent). Everything else stays as it is: a bug or a broken server, never
 * the caller's input.
 */
export function classifyMongoError(error: unknown, operation: string): unknown {
  if (error instanceof UnavailableError) return error;
  const retriable =
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    // A network error inside a bulk write arrives wrapped, its properties copied (beforeHandshake).
    (error instanceof MongoBulkWriteError && isDriverFailure(error) && 'beforeHandshake' in error) ||
    (error instanceof MongoError &&
      (RETRIABLE_LABELS.some((label) => error.hasErrorLabel(label)) ||
        (typeof error.code === 'number' && RETRIABLE_CODES.has(error.code))));
  if (!retriable) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new UnavailableError(`aspect store unavailable during ${operation}: ${reason}`, { cause: error });
}
