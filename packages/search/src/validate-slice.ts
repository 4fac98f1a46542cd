import { ValidationError } from '@catalog/model';
import { MAX_SLICES, type SearchSlice } from './port.js';

/**
 * Checks SearchRequest.slice: integers with 1 <= max <= MAX_SLICES and 0 <= id < max. Returns undefined
 * when there is no restriction (no slice, or max 1); throws ValidationError naming the problem.
 */
export function validateSlice(raw: unknown): SearchSlice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('slice must be {id, max}');
  const { id, max } = raw as { id?: unknown; max?: unknown };
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_SLICES)
    throw new ValidationError(`slice.max must be an integer from 1 to ${MAX_SLICES}, got ${String(max)}`);
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= max)
    throw new ValidationError(`slice.id must be an integer from 0 to ${max - 1}, got ${String(id)}`);
  return max === 1 ? undefined : { id, max };
}
