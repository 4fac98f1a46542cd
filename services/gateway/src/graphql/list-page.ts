import { ValidationError } from '@catalog/model';

/** The `start` (default 0) and `count` (default 20) of a list query's input, checked: bad ones are a 400. */
export function pageOf(input: { readonly start?: number | null; readonly count?: number | null }): {
  start: number;
  count: number;
} {
  const start = input.start ?? 0;
  const count = input.count ?? 20;
  if (!Number.isInteger(start) || start < 0)
    throw new ValidationError(`start must be 0 or more, got ${start}`);
  if (!Number.isInteger(count) || count < 0 || count > 10_000)
    throw new ValidationError(`count must be an integer from 0 to 10000, got ${count}`);
  return { start, count };
}
