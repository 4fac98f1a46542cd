import { describe, expect, it } from 'vitest';
import {
  facetValueOf,
  parseQueryString,
  searchParamsToUrl,
  stringifyQueryString,
  toggleFilter,
  urlValueOf,
  validateSearchParams,
} from './search-params';

describe('the search state in the URL', () => {
  it('round-trips query, filters (repeated keys), sort and page through the query string', () => {
    const url = '?q=orders&platform=hive&platform=mysql&tags=pii&sort=name-asc&page=2';
    const state = validateSearchParams(parseQueryString(url));
    expect(state).toEqual({
      q: 'orders',
      page: 2,
      sort: 'name-asc',
      filters: { platform: ['hive', 'mysql'], tags: ['pii'] },
    });
    expect(stringifyQueryString(searchParamsToUrl(state))).toBe(url);
  });

  it('falls back to defaults for a missing or malformed page and sort, and leaves defaults out of the URL', () => {
    const state = validateSearchParams(parseQueryString('?q=x&page=-3&sort=bogus'));
    expect(state).toEqual({ q: 'x', page: 1, sort: 'relevance', filters: {} });
    expect(stringifyQueryString(searchParamsToUrl(state))).toBe('?q=x');
  });

  it('shows urn facet values by their id and turns them back into urns', () => {
    expect(urlValueOf('platform', 'urn:li:dataPlatform:hive')).toBe('hive');
    expect(facetValueOf('platform', 'hive')).toBe('urn:li:dataPlatform:hive');
    expect(facetValueOf('tags', 'pii')).toBe('urn:li:tag:pii');
    // Facets whose values are not of one urn type keep them as they are.
    expect(urlValueOf('owners', 'urn:li:corpuser:jdoe')).toBe('urn:li:corpuser:jdoe');
    expect(facetValueOf('owners', 'urn:li:corpuser:jdoe')).toBe('urn:li:corpuser:jdoe');
  });

  it('toggles a filter value on and off and goes back to the first page', () => {
    const start = validateSearchParams({ q: 'x', page: '4', platform: 'hive' });
    const added = toggleFilter(start, 'platform', 'mysql');
    expect(added).toMatchObject({ page: 1, filters: { platform: ['hive', 'mysql'] } });
    expect(toggleFilter(toggleFilter(added, 'platform', 'mysql'), 'platform', 'hive').filters).toEqual({});
  });
});
