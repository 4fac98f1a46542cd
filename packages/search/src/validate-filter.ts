import { ValidationError } from '@catalog/model';
import { NUMERIC_TYPES } from './document-fields.js';
import { resolveField } from './index-spec-for.js';
import { normalizeFilter } from './normalize-filter.js';
import type { Condition, Criterion, EntityIndexSpec, FieldMapping, Filter } from './port.js';

const TEXT_CONDITIONS: ReadonlySet<Condition> = new Set([
  'EQUAL',
  'IN',
  'IEQUAL',
  'CONTAIN',
  'START_WITH',
  'END_WITH',
  'EXISTS',
]);
const NUMERIC_CONDITIONS: ReadonlySet<Condition> = new Set([
  'EQUAL',
  'IN',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
  'EXISTS',
]);
const BOOLEAN_CONDITIONS: ReadonlySet<Condition> = new Set(['EQUAL', 'IN', 'IEQUAL', 'EXISTS']);

/** The conditions a field type accepts. */
export function conditionsFor(type: FieldMapping['type']): ReadonlySet<Condition> {
  if (NUMERIC_TYPES.has(type)) return NUMERIC_CONDITIONS;
  if (type === 'BOOLEAN') return BOOLEAN_CONDITIONS;
  return TEXT_CONDITIONS;
}

/** Names the entity types in messages: `entity type dataset` or `entity types dataset, chart`. */
export function describeTypes(specs: readonly EntityIndexSpec[]): string {
  const names = specs.map((s) => s.entityType).join(', ');
  return specs.length === 1 ? `entity type ${names}` : `entity types ${names}`;
}

/**
 * Resolves a field name against the specs (alias → target, `.keyword` already dropped): the canonical
 * name and its mapping in the first spec that knows it; throws `Unknown <what> field "x" for entity
 * type dataset` when none does.
 */
export function requireField(
  specs: readonly EntityIndexSpec[],
  name: string,
  what: string,
): { readonly name: string; readonly mapping: FieldMapping } {
  for (const spec of specs) {
    const mapping = resolveField(spec, name);
    if (mapping !== undefined) return { name: mapping.name, mapping };
  }
  throw new ValidationError(`Unknown ${what} field "${name}" for ${describeTypes(specs)}`);
}

/**
 * Checks a filter (raw or canonical) against the index of one or several entity types and returns it in
 * canonical form: field names resolved (aliases, `.keyword`), boolean values lower-cased. A field needs
 * to be known to at least one of the entity types (documents of the others match no criterion on it).
 * Throws ValidationError naming the problem: unknown field, a condition the field type does not take
 * (GREATER_THAN on text, CONTAIN on a boolean...), non-numeric values for a numeric field or condition,
 * a value other than true/false for a boolean, EXISTS with values, other conditions without values.
 */
export function validateFilter(spec: EntityIndexSpec | readonly EntityIndexSpec[], filter: unknown): Filter {
  const specs: readonly EntityIndexSpec[] = isSpecList(spec) ? spec : [spec];
  const normalized = normalizeFilter(filter);
  checkFilterSize(normalized);
  return {
    or: normalized.or.map((conjunction) => ({
      and: conjunction.and.map((criterion) => validateCriterion(specs, criterion)),
    })),
  };
}

/** The most criteria a filter may have, counted over all its conjunctions. */
export const MAX_FILTER_CRITERIA = 1_000;
/** The most values a filter may list, over all its criteria (an EQUAL list is one clause on either engine). */
export const MAX_FILTER_VALUES = 20_000;
/**
 * The most values of conditions that are tested one value at a time (CONTAIN, START_WITH, END_WITH and
 * the comparisons): each is its own clause, and OpenSearch refuses a query of more than 1024.
 */
export const MAX_PATTERN_VALUES = 1_000;

const ONE_BY_ONE: ReadonlySet<Condition> = new Set([
  'CONTAIN',
  'START_WITH',
  'END_WITH',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
]);

/**
 * Bounds the size of a filter, so that neither engine is asked for more than it can run (a query of
 * too many clauses, an SQL statement of too many terms): a larger filter is the caller's to split.
 */
function checkFilterSize(filter: Filter): void {
  let criteria = 0;
  let values = 0;
  let oneByOne = 0;
  for (const conjunction of filter.or) {
    for (const criterion of conjunction.and) {
      criteria++;
      const count = Array.isArray(criterion.values) ? criterion.values.length : 0;
      values += count;
      if (ONE_BY_ONE.has(criterion.condition)) oneByOne += count;
    }
  }
  if (criteria > MAX_FILTER_CRITERIA)
    throw new ValidationError(
      `The filter has ${criteria} criteria; a search filter may have at most ${MAX_FILTER_CRITERIA}`,
    );
  if (values > MAX_FILTER_VALUES)
    throw new ValidationError(
      `The filter lists ${values} values; a search filter may list at most ${MAX_FILTER_VALUES}`,
    );
  if (oneByOne > MAX_PATTERN_VALUES)
    throw new ValidationError(
      `The filter has ${oneByOne} values of CONTAIN, START_WITH, END_WITH or comparison conditions; ` +
        `a search filter may have at most ${MAX_PATTERN_VALUES} (list exact values with EQUAL instead)`,
    );
}

function isSpecList(spec: EntityIndexSpec | readonly EntityIndexSpec[]): spec is readonly EntityIndexSpec[] {
  return Array.isArray(spec);
}

function validateCriterion(specs: readonly EntityIndexSpec[], criterion: Criterion): Criterion {
  const { name, mapping } = requireField(specs, criterion.field, 'filter');
  const { condition } = criterion;
  const label = `Filter on "${criterion.field}" (${mapping.type})`;
  if (!conditionsFor(mapping.type).has(condition))
    throw new ValidationError(`${label}: condition ${condition} does not apply to a ${mapping.type} field`);
  if (condition === 'EXISTS') {
    if (criterion.values.length > 0) throw new ValidationError(`${label}: EXISTS takes no values`);
  } else if (criterion.values.length === 0) {
    throw new ValidationError(`${label}: condition ${condition} needs at least one value`);
  }
  let values = criterion.values;
  if (NUMERIC_TYPES.has(mapping.type)) {
    const bad = values.find((v) => v.trim() === '' || !Number.isFinite(Number(v)));
    if (bad !== undefined) throw new ValidationError(`${label}: value "${bad}" is not a number`);
  } else if (mapping.type === 'BOOLEAN') {
    values = values.map((v) => v.toLowerCase());
    const bad = values.find((v) => v !== 'true' && v !== 'false');
    if (bad !== undefined) throw new ValidationError(`${label}: value "${bad}" is not true or false`);
  }
  return {
    field: name,
    values,
    condition,
    ...(criterion.negated === true ? { negated: true } : {}),
  };
}

/** Whether a canonical filter has a criterion on `field`. */
export function filterMentions(filter: Filter | undefined, field: string): boolean {
  return filter?.or.some((c) => c.and.some((criterion) => criterion.field === field)) ?? false;
}
