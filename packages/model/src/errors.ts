import type { FieldProblem } from './types.js';

/** Codes of the domain errors; each interface maps them to its own status and body, once. */
export type ErrorCode =
  | 'VALIDATION'
  | 'SCHEMA_VALIDATION'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'PRECONDITION'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'UNAVAILABLE'
  | 'THROTTLED';

/** Base of every error the domain raises on purpose. `message` is safe to show the caller. */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Input that is malformed or refers to something unknown (bad URN, unknown aspect, bad filter). */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION';
}

/** An aspect value that does not match its schema; carries every problem with its path. */
export class SchemaValidationError extends DomainError {
  readonly code = 'SCHEMA_VALIDATION';
  constructor(
    message: string,
    readonly problems: readonly FieldProblem[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
}

/** A write that contradicts the stored state (e.g. CREATE of an aspect that exists). */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
}

/** A conditional write whose condition (If-Version-Match, …) does not hold. */
export class PreconditionError extends DomainError {
  readonly code = 'PRECONDITION';
}

export class UnauthorizedError extends DomainError {
  readonly code = 'UNAUTHORIZED';
}

export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
}

/** A dependency is down or too slow (the log, the store); retriable. */
export class UnavailableError extends DomainError {
  readonly code = 'UNAVAILABLE';
}

/** A write refused while the service throttles writes (the ecosystem's APIThrottleException, 429). */
export class ThrottledError extends DomainError {
  readonly code = 'THROTTLED';
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** Renders problems as one line each: `owners[0].owner: not a URN`. */
export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
}
