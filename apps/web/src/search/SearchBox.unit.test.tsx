/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ME, renderApp, stubFetch } from '../test/render';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)';

const answers = {
  getMe: ME,
  getEntityCounts: { getEntityCounts: { counts: [] } },
  getPlatformCounts: { aggregateAcrossEntities: { facets: [] } },
  getAutoCompleteMultipleResults: {
    autoCompleteForMultiple: {
      query: 'ord',
      suggestions: [
        {
          type: 'DATASET',
          suggestions: ['orders'],
          entities: [
            {
              urn: ORDERS,
              type: 'DATASET',
              name: 'sales.orders',
              properties: { name: 'orders', description: null },
              editableProperties: null,
              platform: { urn: 'urn:li:dataPlatform:hive', name: 'hive', properties: null },
            },
          ],
        },
      ],
    },
  },
};

describe('the header search', () => {
  it('is focused by the / key from anywhere but a text field', async () => {
    stubFetch(answers);
    await renderApp('/');
    const box = await screen.findByRole('combobox', { name: 'Search the catalog' });
    expect(document.activeElement).not.toBe(box);
    await userEvent.keyboard('/');
    expect(document.activeElement).toBe(box);
    expect((box as HTMLInputElement).value).toBe('');
  });

  it('suggests entities as one types; arrow keys and Enter open the one chosen', async () => {
    const calls = stubFetch(answers);
    const { router } = await renderApp('/');
    const box = await screen.findByRole('combobox', { name: 'Search the catalog' });
    await userEvent.type(box, 'ord');
    const option = await screen.findByRole('option', { name: /orders/ });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(calls.find((c) => c.operation === 'getAutoCompleteMultipleResults')?.variables).toEqual({
      input: { query: 'ord', limit: 8 },
    });
    await userEvent.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(option.id);
    expect(option.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/dataset/${encodeURIComponent(ORDERS)}`),
    );
  });

  it('runs the search on Enter when no suggestion is chosen', async () => {
    stubFetch({
      ...answers,
      getSearchResultsForMultiple: {
        searchAcrossEntities: { start: 0, count: 0, total: 0, searchResults: [], facets: [] },
      },
    });
    const { router } = await renderApp('/');
    const box = await screen.findByRole('combobox', { name: 'Search the catalog' });
    await userEvent.type(box, 'orders{Enter}');
    await waitFor(() => expect(router.state.location.href).toBe('/search?q=orders'));
  });
});
