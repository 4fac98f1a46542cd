import { CHANGE_CATEGORIES, ValidationError, type ChangeCategory } from '@catalog/model';

/** Names the ecosystem still accepts for renamed categories. */
const ALIASES: Readonly<Record<string, ChangeCategory>> = { OWNER: 'OWNERSHIP' };

/** Categories of more than one word, matched by their words (`technical-schema`, `Technical Schema`). */
const COMPOUND = CHANGE_CATEGORIES.filter((c) =>
  ['GLOSSARY_TERM', 'TECHNICAL_SCHEMA', 'STRUCTURED_PROPERTY', 'ASSET_MEMBERSHIP'].includes(c),
);

/**
 * A category as a REST caller names it, any case: an alias, a compound name whose every word it
 * contains, or the exact name. Anything else is a 400 naming the value and the categories there are.
 */
export function parseChangeCategory(source: string): ChangeCategory {
  const upper = source.toUpperCase();
  const aliased = ALIASES[upper];
  if (aliased !== undefined) return aliased;
  const compound = COMPOUND.find((c) => c.split('_').every((word) => upper.includes(word)));
  if (compound !== undefined) return compound;
  const exact = CHANGE_CATEGORIES.find((c) => c === upper);
  if (exact !== undefined) return exact;
  throw new ValidationError(
    `Invalid value ${JSON.stringify(source)} for categories: expected one of ${CHANGE_CATEGORIES.join(', ')}`,
  );
}
