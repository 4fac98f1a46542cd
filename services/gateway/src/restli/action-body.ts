import type { Request } from 'express';
import { ValidationError } from '@catalog/model';

/** The JSON object body of a Rest.li action, with typed readers that name the bad parameter. */
export class ActionBody {
  private constructor(private readonly body: Record<string, unknown>) {}

  static of(req: Request): ActionBody {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ValidationError('The request body must be a JSON object');
    }
    return new ActionBody(body as Record<string, unknown>);
  }

  raw(name: string): unknown {
    return this.body[name];
  }

  requiredString(name: string): string {
    const value = this.body[name];
    if (typeof value !== 'string' || value === '')
      throw new ValidationError(`${name} is required (a string)`);
    return value;
  }

  optionalString(name: string): string | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new ValidationError(`${name} must be a string`);
    return value;
  }

  /** An integer parameter; Rest.li clients send numbers, some send numeric strings. */
  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const value = this.body[name];
    if (value === undefined || value === null) return fallback;
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n))
      throw new ValidationError(`${name} must be an integer`);
    if (bounds.min !== undefined && n < bounds.min)
      throw new ValidationError(`${name} must be >= ${bounds.min}, got ${n}`);
    if (bounds.max !== undefined && n > bounds.max)
      throw new ValidationError(`${name} must be <= ${bounds.max}, got ${n}`);
    return n;
  }

  optionalInt(name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
    const value = this.body[name];
    return value === undefined || value === null ? undefined : this.int(name, 0, bounds);
  }
}
