import type { Criterion, Filter } from './port.js';

/**
 * Evaluates a canonical filter against one record in memory (the reference semantics of conditions;
 * the time-series index uses it on top-level fields of the value). `valuesOf` gives a field's values;
 * none means absent. An empty filter matches. Criterion values are ORed; a negated criterion matches
 * exactly when the plain one does not (so absent fields match a negated criterion). EQUAL/IN are exact
 * (numbers compared as numbers); IEQUAL, CONTAIN, START_WITH and END_WITH ignore case.
 */
export function matchesFilter(
  filter: Filter | undefined,
  valuesOf: (field: string) => readonly unknown[],
): boolean {
  if (filter === undefined || filter.or.length === 0) return true;
  return filter.or.some((conjunction) =>
    conjunction.and.every((criterion) => matchesCriterion(criterion, valuesOf(criterion.field))),
  );
}

function matchesCriterion(criterion: Criterion, values: readonly unknown[]): boolean {
  const plain = matchesPlain(
    criterion,
    values.filter((v) => v !== null && v !== undefined),
  );
  return criterion.negated === true ? !plain : plain;
}

function matchesPlain(criterion: Criterion, values: readonly unknown[]): boolean {
  if (criterion.condition === 'EXISTS') return values.length > 0;
  return values.some((value) => criterion.values.some((wanted) => compare(criterion, value, wanted)));
}

function compare(criterion: Criterion, value: unknown, wanted: string): boolean {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  switch (criterion.condition) {
    case 'EQUAL':
    case 'IN':
      return typeof value === 'number' ? value === Number(wanted) : text === wanted;
    case 'IEQUAL':
      return text.toLowerCase() === wanted.toLowerCase();
    case 'CONTAIN':
      return text.toLowerCase().includes(wanted.toLowerCase());
    case 'START_WITH':
      return text.toLowerCase().startsWith(wanted.toLowerCase());
    case 'END_WITH':
      return text.toLowerCase().endsWith(wanted.toLowerCase());
    case 'GREATER_THAN':
      return Number(value) > Number(wanted);
    case 'GREATER_THAN_OR_EQUAL_TO':
      return Number(value) >= Number(wanted);
    case 'LESS_THAN':
      return Number(value) < Number(wanted);
    case 'LESS_THAN_OR_EQUAL_TO':
      return Number(value) <= Number(wanted);
    default:
      return false;
  }
}
