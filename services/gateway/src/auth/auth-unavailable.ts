import { isDomainError, UnavailableError } from '@catalog/model';

/**
 * Runs an authentication or authorization step whose failure (not a refusal: a refusal is an answer)
 * means the store it reads is down: the request then gets a 503 naming that, not a 500 or a 401/403
 * that would misstate the caller's rights.
 */
export async function unlessUnavailable<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isDomainError(error)) throw error;
    throw new UnavailableError(`${what}: the aspect store is unavailable`, { cause: error });
  }
}
