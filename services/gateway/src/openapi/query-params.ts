import type { Request } from 'express';
import { ValidationError } from '@catalog/model';

/** `true`/`false` query flags with the route's default. */
export function flag(req: Request, name: string, fallback: boolean): boolean {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ValidationError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

/** An optional integer query parameter within bounds; anything else is a 400 naming it. */
export function intParam(
  req: Request,
  name: string,
  bounds: { readonly min: number; readonly max: number },
): number | undefined {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return undefined;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max)
    throw new ValidationError(
      `${name} must be an integer from ${bounds.min} to ${bounds.max}, got ${JSON.stringify(raw)}`,
    );
  return value;
}
