import type { GraphQLContext } from '../context.js';
import { searchPage, type AcrossInput, type FacetFilter } from './search-resolvers.js';

/** The input of a field listing what an entity holds (`Container.entities`, `Domain.entities`, ...). */
export interface ScopedSearchInput {
  readonly query?: string | null;
  readonly start?: number | null;
  readonly count?: number | null;
  readonly filters?: readonly FacetFilter[] | null;
  readonly orFilters?: readonly { and?: readonly FacetFilter[] | null }[] | null;
  readonly types?: readonly string[] | null;
  readonly searchFlags?: AcrossInput['searchFlags'];
  readonly sortInput?: AcrossInput['sortInput'];
}

/** The ecosystem's page of a scoped listing when the input names none. */
const DEFAULT_COUNT = 20;

/**
 * A search page of the entities matching `scope` (a field and the values it must hold) as well as the
 * client's own filters: the scope is added to every conjunction, so no filter of the client widens it.
 */
export function searchWithin(
  ctx: GraphQLContext,
  input: ScopedSearchInput | null | undefined,
  scope: FacetFilter,
  entities: readonly string[],
  defaultCount = DEFAULT_COUNT,
) {
  const given = input ?? {};
  const orFilters =
    given.orFilters !== undefined && given.orFilters !== null && given.orFilters.length > 0
      ? given.orFilters.map((c) => ({ and: [...(c.and ?? []), scope] }))
      : [{ and: [...(given.filters ?? []), scope] }];
  const across: AcrossInput = {
    query: given.query ?? '*',
    start: given.start ?? 0,
    count: given.count ?? defaultCount,
    orFilters,
    ...(given.searchFlags === undefined ? {} : { searchFlags: given.searchFlags }),
    ...(given.sortInput === undefined ? {} : { sortInput: given.sortInput }),
  };
  return searchPage(ctx, across, entities);
}
