import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { execute } from '../api/graphql-client';
import { Chip } from '../design/Chip';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { graphql } from '../gql';
import { FacetPanel, facetValueLabel, type Facet } from './FacetPanel';
import { Pagination } from './Pagination';
import { SearchResultItem } from './SearchResultItem';
import { PAGE_SIZE, searchInputOf } from './search-input';
import {
  searchParamsToUrl,
  SORT_KEYS,
  toggleFilter,
  facetValueOf,
  validateSearchParams,
  type SearchParams,
  type SortKey,
} from './search-params';
import styles from './SearchPage.module.css';

const SearchQuery = graphql(`
  query getSearchResultsForMultiple($input: SearchAcrossEntitiesInput!) {
    searchAcrossEntities(input: $input) {
      start
      count
      total
      searchResults {
        entity {
          ...EntitySummaryFields
        }
        matchedFields {
          name
          value
        }
      }
      facets {
        field
        displayName
        aggregations {
          value
          count
          entity {
            ...EntitySummaryFields
          }
        }
      }
    }
  }
`);

const SORT_LABELS: Record<SortKey, string> = {
  relevance: 'Relevance',
  'name-asc': 'Name (A to Z)',
  'name-desc': 'Name (Z to A)',
};

/** Results of a search: hits, facets with counts, filters, sort and pages, all held in the URL. */
export function SearchPage() {
  const params = validateSearchParams(useSearch({ from: '/app/search' }));
  const navigate = useNavigate({ from: '/search' });
  const go = (next: SearchParams) => void navigate({ search: searchParamsToUrl(next) as never });
  const input = searchInputOf(params);
  const results = useQuery({
    queryKey: ['search', input],
    queryFn: () => execute(SearchQuery, { input }),
    placeholderData: keepPreviousData,
  });
  const page = results.data?.searchAcrossEntities;
  const facets: Facet[] = page?.facets ?? [];
  const labelOf = (field: string, urlValue: string) => {
    const value = facetValueOf(field, urlValue);
    const aggregation = facets.find((f) => f.field === field)?.aggregations.find((a) => a.value === value);
    return aggregation ? facetValueLabel(field, aggregation) : urlValue;
  };
  const chosen = Object.entries(params.filters).flatMap(([field, values]) =>
    values.map((value) => ({ field, value })),
  );

  return (
    <div className={styles.layout}>
      <aside className={styles.facets} aria-label="Filters">
        <FacetPanel
          facets={facets}
          chosen={params.filters}
          onToggle={(field, value) => go(toggleFilter(params, field, value))}
        />
      </aside>
      <section className={styles.results} aria-labelledby="results-title">
        <div className={styles.toolbar}>
          <h1 id="results-title" className={styles.title} aria-live="polite">
            {page
              ? `${page.total.toLocaleString()} result${page.total === 1 ? '' : 's'}${params.q ? ` for “${params.q}”` : ''}`
              : 'Search'}
          </h1>
          <label className={styles.sort}>
            Sort by
            <select
              value={params.sort}
              onChange={(event) => go({ ...params, sort: event.target.value as SortKey, page: 1 })}
            >
              {SORT_KEYS.map((key) => (
                <option key={key} value={key}>
                  {SORT_LABELS[key]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {chosen.length > 0 ? (
          <div className={styles.chosen}>
            <span className="visually-hidden">Active filters:</span>
            {chosen.map(({ field, value }) => (
              <Chip
                key={`${field}=${value}`}
                onRemove={() => go(toggleFilter(params, field, value))}
                removeLabel={`Remove filter ${labelOf(field, value)}`}
              >
                {labelOf(field, value)}
              </Chip>
            ))}
            <Link to="/search" search={searchParamsToUrl({ ...params, filters: {}, page: 1 }) as never}>
              Clear filters
            </Link>
          </div>
        ) : null}
        {results.isPending ? <Loading what="results" /> : null}
        {results.error ? <ErrorMessage error={results.error} /> : null}
        {page && page.searchResults.length === 0 ? <Muted>Nothing matches. Try fewer filters.</Muted> : null}
        {page ? (
          <ol className={styles.list} start={page.start + 1} aria-busy={results.isFetching}>
            {page.searchResults.map((result) => (
              <SearchResultItem key={result.entity.urn} result={result} />
            ))}
          </ol>
        ) : null}
        {page ? (
          <Pagination
            page={params.page}
            pages={Math.max(1, Math.ceil(Math.min(page.total, 10_000) / PAGE_SIZE))}
            searchOf={(n) => searchParamsToUrl({ ...params, page: n })}
          />
        ) : null}
      </section>
    </div>
  );
}
