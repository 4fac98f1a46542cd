import type { Types } from '@opensearch-project/opensearch';
import type { Criterion, Filter } from '../port.js';
import type { FieldPaths } from './field-paths.js';

const TEXT_ROOTED: ReadonlySet<string> = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM']);

export type Query = Types.Common_QueryDsl.QueryContainer;

/** Resolves a (canonical) field name to its paths in the index or indices being queried. */
export type PathsLookup = (field: string) => readonly FieldPaths[];

export const MATCH_ALL: Query = { match_all: {} };
export const MATCH_NONE: Query = { match_none: {} };

/**
 * A validated filter (disjunctive normal form) as a query: each conjunction a bool of filters and
 * must_nots, the conjunctions ORed. Semantics follow matchesFilter: values ORed; a negated criterion is
 * the complement (absent fields match it); EQUAL/IN exact; IEQUAL, CONTAIN, START_WITH, END_WITH ignore
 * case. Undefined or empty → undefined (no restriction).
 */
export function filterQuery(filter: Filter | undefined, lookup: PathsLookup): Query | undefined {
  if (filter === undefined || filter.or.length === 0) return undefined;
  const conjunctions = filter.or.map((conjunction): Query => {
    const must: Query[] = [];
    const mustNot: Query[] = [];
    for (const criterion of conjunction.and) {
      const clause = criterionQuery(criterion, lookup(criterion.field));
      (criterion.negated === true ? mustNot : must).push(clause);
    }
    if (must.length === 0 && mustNot.length === 0) return MATCH_ALL;
    return {
      bool: {
        ...(must.length > 0 ? { filter: must } : {}),
        ...(mustNot.length > 0 ? { must_not: mustNot } : {}),
      },
    };
  });
  return conjunctions.length === 1 && conjunctions[0] !== undefined
    ? conjunctions[0]
    : { bool: { should: conjunctions, minimum_should_match: 1 } };
}

/** The plain (not negated) criterion over every variant of the field (indices may map it differently). */
function criterionQuery(criterion: Criterion, variants: readonly FieldPaths[]): Query {
  const clauses = variants.map((paths) => onField(criterion, paths));
  if (clauses.length === 0) return MATCH_NONE;
  return clauses.length === 1 && clauses[0] !== undefined ? clauses[0] : anyOf(clauses);
}

function onField(criterion: Criterion, paths: FieldPaths): Query {
  const { condition, values } = criterion;
  switch (condition) {
    case 'EXISTS':
      // Text fields: the analyzed root, which holds values too long for the keyword subfield.
      return { exists: { field: TEXT_ROOTED.has(paths.type) && paths.text ? paths.text : paths.exact } };
    case 'EQUAL':
    case 'IN':
      return exactValues(paths, values);
    case 'IEQUAL':
      if (paths.kind !== 'string') return exactValues(paths, values);
      return termsOn(
        paths.folded ?? paths.exact,
        values.map((v) => v.toLowerCase()),
      );
    case 'CONTAIN':
      return anyOf(values.map((v) => wildcard(paths, `*${escapeWildcard(v)}*`)));
    case 'START_WITH':
      return anyOf(values.map((v) => prefix(paths, v)));
    case 'END_WITH':
      return anyOf(values.map((v) => wildcard(paths, `*${escapeWildcard(v)}`)));
    case 'GREATER_THAN':
      return anyOf(values.map((v) => range(paths, 'gt', v)));
    case 'GREATER_THAN_OR_EQUAL_TO':
      return anyOf(values.map((v) => range(paths, 'gte', v)));
    case 'LESS_THAN':
      return anyOf(values.map((v) => range(paths, 'lt', v)));
    case 'LESS_THAN_OR_EQUAL_TO':
      return anyOf(values.map((v) => range(paths, 'lte', v)));
  }
}

/** Exact values: strings as they are, numbers and dates as numbers, booleans as true/false. */
export function exactValues(paths: FieldPaths, values: readonly string[]): Query {
  if (paths.kind === 'number' || paths.kind === 'date') {
    const numbers = values.map(Number).filter(Number.isFinite);
    return numbers.length === 0 ? MATCH_NONE : termsOn(paths.exact, numbers);
  }
  if (paths.kind === 'boolean') {
    const booleans = values.map((v) => v.toLowerCase()).filter((v) => v === 'true' || v === 'false');
    return booleans.length === 0
      ? MATCH_NONE
      : termsOn(
          paths.exact,
          booleans.map((v) => v === 'true'),
        );
  }
  return termsOn(paths.exact, values);
}

function termsOn(path: string, values: readonly (string | number | boolean)[]): Query {
  if (values.length === 1 && values[0] !== undefined) return { term: { [path]: { value: values[0] } } };
  return { terms: { [path]: [...values] } };
}

function wildcard(paths: FieldPaths, pattern: string): Query {
  if (paths.kind !== 'string') return MATCH_NONE;
  return {
    wildcard: { [paths.folded ?? paths.exact]: { value: pattern.toLowerCase(), case_insensitive: true } },
  };
}

function prefix(paths: FieldPaths, value: string): Query {
  if (paths.kind !== 'string') return MATCH_NONE;
  return {
    prefix: { [paths.folded ?? paths.exact]: { value: value.toLowerCase(), case_insensitive: true } },
  };
}

function range(paths: FieldPaths, bound: 'gt' | 'gte' | 'lt' | 'lte', value: string): Query {
  const number = Number(value);
  if (!Number.isFinite(number) || (paths.kind !== 'number' && paths.kind !== 'date')) return MATCH_NONE;
  return { range: { [paths.exact]: { [bound]: number } } };
}

function anyOf(clauses: readonly Query[]): Query {
  if (clauses.length === 1 && clauses[0] !== undefined) return clauses[0];
  return { bool: { should: [...clauses], minimum_should_match: 1 } };
}

/** Wildcard patterns treat `*`, `?` and `\` specially; criterion values mean them literally. */
function escapeWildcard(value: string): string {
  return value.replace(/[\\*?]/g, (c) => `\\${c}`);
}
