import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionError,
  SchemaValidationError,
  UnavailableError,
  ValidationError,
  type DomainError,
} from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';

/** The domain error a rejected proposal's outcome stands for, so each interface maps it its own way. */
export function errorOfOutcome(outcome: ProposalOutcome): DomainError {
  const message = outcome.message ?? 'The write was rejected';
  switch (outcome.code) {
    case 'CONFLICT':
      return new ConflictError(message);
    case 'NOT_FOUND':
      return new NotFoundError(message);
    case 'FORBIDDEN':
    case 'UNAUTHORIZED':
      return new ForbiddenError(message);
    case 'UNAVAILABLE':
      return new UnavailableError(message);
    case 'SCHEMA_VALIDATION':
      return new SchemaValidationError(message, []);
    case 'PRECONDITION':
      return new PreconditionError(message);
    case 'PAYLOAD_TOO_LARGE':
      return new PayloadTooLargeError(message);
    default:
      return new ValidationError(message);
  }
}
