import { ValidationError } from '@catalog/model';

/** What went wrong in a native-user operation; each interface maps it to its own status. */
export type NativeUserFailure =
  | 'INVALID_USER_URN'
  | 'RESERVED_USER'
  | 'USER_EXISTS'
  | 'INVALID_INVITE_TOKEN'
  | 'NOT_NATIVE_USER'
  | 'NO_SUCH_USER'
  | 'NO_RESET_TOKEN'
  | 'INVALID_RESET_TOKEN'
  | 'RESET_TOKEN_EXPIRED';

/** The ecosystem's texts (NativeUserService, AuthServiceController), so logs and GraphQL errors match. */
export const NATIVE_USER_MESSAGES: Readonly<Record<NativeUserFailure, string>> = {
  INVALID_USER_URN: 'The user urn must be a corpuser urn (urn:li:corpuser:<id>).',
  RESERVED_USER: 'This user already exists! Cannot create a new user.',
  USER_EXISTS: 'This user already exists! Cannot create a new user.',
  INVALID_INVITE_TOKEN: 'Invalid invite token',
  NOT_NATIVE_USER: 'User does not exist or is a non-native user!',
  NO_SUCH_USER: 'User does not exist!',
  NO_RESET_TOKEN: 'User has not generated a password reset token!',
  INVALID_RESET_TOKEN: 'Invalid reset token. Please ask your administrator to send you an updated link!',
  RESET_TOKEN_EXPIRED: 'Reset token has expired! Please ask your administrator to create a new one',
};

/**
 * A refused native-user operation. A ValidationError, so GraphQL reports it as a 400 with its message;
 * the HTTP routes read `failure` to pick the ecosystem's status for each case.
 */
export class NativeUserError extends ValidationError {
  constructor(readonly failure: NativeUserFailure) {
    super(NATIVE_USER_MESSAGES[failure]);
  }
}

export function isNativeUserError(
  error: unknown,
  ...failures: NativeUserFailure[]
): error is NativeUserError {
  return error instanceof NativeUserError && (failures.length === 0 || failures.includes(error.failure));
}
