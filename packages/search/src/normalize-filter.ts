import { ValidationError } from '@catalog/model';
import { CONDITIONS, type Condition, type Criterion, type Filter } from './port.js';

const KEYWORD_SUFFIX = '.keyword';

/**
 * A filter in canonical form from what a client sent: `{or:[{and:[criterion...]}]}`, or the older
 * `{criteria:[criterion...]}` (one conjunction). Criteria may carry `values` or the older single
 * `value` (an empty `value` counts as none); `condition` defaults to EQUAL; values that are numbers or
 * booleans become strings; a `.keyword` suffix on a field name is dropped. `null`/`undefined` give the
 * empty filter `{or: []}`, which matches everything. Throws ValidationError on any other shape.
 */
export function normalizeFilter(raw: unknown): Filter {
  if (raw === undefined || raw === null) return { or: [] };
  if (!isRecord(raw)) throw new ValidationError('Invalid filter: must be an object {or: [{and: [...]}]}');
  const or = raw['or'];
  const criteria = raw['criteria'];
  if (or !== undefined && or !== null) {
    if (!Array.isArray(or)) throw new ValidationError('Invalid filter: "or" must be an array');
    const conjunctions = (or as unknown[]).map((conjunction, i) => {
      if (!isRecord(conjunction) || !Array.isArray(conjunction['and']))
        throw new ValidationError(`Invalid filter: or[${i}] must be an object {and: [criterion...]}`);
      return {
        and: (conjunction['and'] as unknown[]).map((c, j) => normalizeCriterion(c, `or[${i}].and[${j}]`)),
      };
    });
    if (criteria !== undefined && criteria !== null && Array.isArray(criteria) && criteria.length > 0)
      throw new ValidationError('Invalid filter: give either "or" or "criteria", not both');
    return { or: conjunctions };
  }
  if (criteria !== undefined && criteria !== null) {
    if (!Array.isArray(criteria)) throw new ValidationError('Invalid filter: "criteria" must be an array');
    const and = (criteria as unknown[]).map((c, j) => normalizeCriterion(c, `criteria[${j}]`));
    return { or: and.length === 0 ? [] : [{ and }] };
  }
  if (Object.keys(raw).length === 0) return { or: [] };
  throw new ValidationError('Invalid filter: must have the form {or: [{and: [criterion...]}]}');
}

/** A field name without the `.keyword` suffix clients add for exact matching. */
export function stripKeywordSuffix(field: string): string {
  return field.endsWith(KEYWORD_SUFFIX) ? field.slice(0, -KEYWORD_SUFFIX.length) : field;
}

function normalizeCriterion(raw: unknown, where: string): Criterion {
  if (!isRecord(raw)) throw new ValidationError(`Invalid filter: ${where} must be a criterion object`);
  const field = raw['field'];
  if (typeof field !== 'string' || field.trim() === '')
    throw new ValidationError(`Invalid filter: ${where} is missing its field`);
  const condition = raw['condition'] ?? 'EQUAL';
  if (typeof condition !== 'string' || !(CONDITIONS as readonly string[]).includes(condition))
    throw new ValidationError(
      `Invalid filter: ${where} has unknown condition ${JSON.stringify(condition)} (one of ${CONDITIONS.join(', ')})`,
    );
  const negated = raw['negated'] ?? false;
  if (typeof negated !== 'boolean')
    throw new ValidationError(`Invalid filter: ${where}.negated must be a boolean`);
  return {
    field: stripKeywordSuffix(field.trim()),
    values: valuesOf(raw, where),
    condition: condition as Condition,
    ...(negated ? { negated: true } : {}),
  };
}

function valuesOf(raw: Record<string, unknown>, where: string): string[] {
  const values = raw['values'];
  const value = raw['value'];
  if (values !== undefined && values !== null) {
    if (!Array.isArray(values)) throw new ValidationError(`Invalid filter: ${where}.values must be an array`);
    const list = (values as unknown[]).map((v, i) => scalarString(v, `${where}.values[${i}]`));
    if (list.length > 0 || value === undefined || value === null || value === '') return list;
  }
  if (value === undefined || value === null || value === '') return [];
  return [scalarString(value, `${where}.value`)];
}

function scalarString(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ValidationError(`Invalid filter: ${where} must be a string`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
