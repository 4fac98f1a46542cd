/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ME, renderApp, stubFetch } from '../test/render';

const hive = {
  urn: 'urn:li:dataPlatform:hive',
  type: 'DATA_PLATFORM',
  name: 'hive',
  properties: { displayName: 'Hive' },
};
const mysql = { urn: 'urn:li:dataPlatform:mysql', type: 'DATA_PLATFORM', name: 'mysql', properties: null };

interface Platform {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  readonly properties: { displayName: string } | null;
}

const dataset = (name: string, platform: Platform, description: string) => ({
  entity: {
    urn: `urn:li:dataset:(${platform.urn},${name},PROD)`,
    type: 'DATASET',
    name,
    properties: { name, description },
    editableProperties: null,
    platform,
  },
  matchedFields: [
    { name: 'name', value: name },
    { name: 'description', value: description },
  ],
});

/** The search answer: filtered by platform when the input asks, with the facets of the whole query. */
function searchAnswer(variables: Record<string, unknown>) {
  const input = variables['input'] as {
    orFilters?: { and: { field: string; values: string[] }[] }[];
    start: number;
  };
  const platforms = input.orFilters?.[0]?.and.find((c) => c.field === 'platform')?.values;
  const all = [
    dataset('orders', hive, '**One row** per order'),
    dataset('orders_archive', mysql, 'Old orders'),
  ];
  const hits = all.filter((h) => platforms === undefined || platforms.includes(h.entity.platform.urn));
  return {
    searchAcrossEntities: {
      start: input.start,
      count: hits.length,
      total: hits.length,
      searchResults: hits,
      facets: [
        {
          field: 'platform',
          displayName: 'Platform',
          aggregations: [
            { value: hive.urn, count: 1, entity: hive },
            { value: mysql.urn, count: 1, entity: mysql },
          ],
        },
        {
          field: 'entity',
          displayName: 'Type',
          aggregations: [{ value: 'DATASET', count: 2, entity: null }],
        },
      ],
    },
  };
}

describe('the search results page', () => {
  it('shows each hit with its platform, a plain-text snippet and what matched, and the facets with counts', async () => {
    stubFetch({ getMe: ME, getSearchResultsForMultiple: searchAnswer });
    await renderApp('/search?q=orders');
    const results = await screen.findByRole('heading', { name: '2 results for “orders”' });
    expect(results).toBeTruthy();
    const first = screen.getByRole('link', { name: 'orders' }).closest('li')!;
    expect(within(first).getByText('Dataset · Hive')).toBeTruthy();
    expect(within(first).getByText('One row per order')).toBeTruthy();
    expect(within(first).getByText('Matched: name, description')).toBeTruthy();
    const platform = screen.getByRole('group', { name: 'Platform' });
    const values = within(platform)
      .getAllByRole('checkbox')
      .map((box) => box.closest('label')?.textContent);
    expect(values).toEqual(['Hive1 result', 'mysql1 result']);
  });

  it('puts a chosen facet value in the URL by its name and sends it as a filter', async () => {
    const calls = stubFetch({ getMe: ME, getSearchResultsForMultiple: searchAnswer });
    const { router } = await renderApp('/search?q=orders');
    await screen.findByRole('heading', { name: '2 results for “orders”' });
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Platform' })).getByRole('checkbox', { name: /^Hive/ }),
    );
    await screen.findByRole('heading', { name: '1 result for “orders”' });
    expect(router.state.location.href).toBe('/search?q=orders&platform=hive');
    const last = calls.filter((c) => c.operation === 'getSearchResultsForMultiple').at(-1)!;
    expect(last.variables).toEqual({
      input: {
        query: 'orders',
        start: 0,
        count: 10,
        orFilters: [{ and: [{ field: 'platform', values: [hive.urn], condition: 'EQUAL' }] }],
      },
    });
    // The chosen filter is shown, and its remove button takes it out of the URL again.
    await userEvent.click(screen.getByRole('button', { name: 'Remove filter Hive' }));
    await waitFor(() => expect(router.state.location.href).toBe('/search?q=orders'));
  });

  it('reads filters, sort and page from the URL, so a shared link shows the same results', async () => {
    const calls = stubFetch({ getMe: ME, getSearchResultsForMultiple: searchAnswer });
    await renderApp('/search?q=orders&platform=mysql&entity=DATASET&sort=name-desc&page=3');
    await screen.findByRole('heading', { name: /result/ });
    expect(calls.find((c) => c.operation === 'getSearchResultsForMultiple')?.variables).toEqual({
      input: {
        query: 'orders',
        start: 20,
        count: 10,
        orFilters: [
          {
            and: [
              { field: 'platform', values: [mysql.urn], condition: 'EQUAL' },
              { field: '_entityType', values: ['DATASET'], condition: 'EQUAL' },
            ],
          },
        ],
        sortInput: { sortCriteria: [{ field: '_entityName', sortOrder: 'DESCENDING' }] },
      },
    });
    expect((screen.getByLabelText('Sort by') as HTMLSelectElement).value).toBe('name-desc');
  });
});
