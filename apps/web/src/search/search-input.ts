import type { SearchAcrossEntitiesInput } from '../gql/graphql';
import { facetValueOf, type SearchParams } from './search-params';

export const PAGE_SIZE = 10;

/** The GraphQL field a facet filters on: the entity type facet is reported as `entity`. */
function filterField(field: string): string {
  return field === 'entity' ? '_entityType' : field;
}

/**
 * The `searchAcrossEntities` input of a page state: the chosen values of one facet are one criterion
 * (any of them), the facets together one conjunction (all of them), as the ecosystem's UI sends them.
 */
export function searchInputOf(params: SearchParams): SearchAcrossEntitiesInput {
  const and = Object.entries(params.filters).map(([field, values]) => ({
    field: filterField(field),
    values: values.map((value) => facetValueOf(field, value)),
    condition: 'EQUAL' as const,
  }));
  const sortOrder = params.sort === 'name-desc' ? ('DESCENDING' as const) : ('ASCENDING' as const);
  return {
    query: params.q.trim() === '' ? '*' : params.q.trim(),
    start: (params.page - 1) * PAGE_SIZE,
    count: PAGE_SIZE,
    ...(and.length === 0 ? {} : { orFilters: [{ and }] }),
    ...(params.sort === 'relevance'
      ? {}
      : { sortInput: { sortCriteria: [{ field: '_entityName', sortOrder }] } }),
  };
}

/** Plain text of a markdown description, cut at a word near `max` characters. */
export function snippetOf(markdown: string, max = 220): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > max / 2 ? space : max)}…`;
}
