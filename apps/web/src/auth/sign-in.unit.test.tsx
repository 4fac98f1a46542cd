/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ME, renderApp, stubFetch } from '../test/render';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const SEARCH = {
  searchAcrossEntities: { start: 0, count: 0, total: 0, searchResults: [], facets: [] },
};

describe('signing in', () => {
  it('sends a visitor without a session to sign in, then back to the page asked for', async () => {
    let signedIn = false;
    const calls = stubFetch(
      { getMe: () => (signedIn ? ME : 'unauthenticated'), getSearchResultsForMultiple: SEARCH },
      {
        '/logIn': (body) => {
          const { password } = body as { password: string };
          if (password !== 'datahub') return json(400, { message: 'Invalid Credentials' });
          signedIn = true;
          return json(200, { accessToken: 'token' });
        },
      },
    );
    const { router } = await renderApp('/search?q=orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/search?q=orders' });

    await userEvent.type(await screen.findByLabelText('Username'), 'datahub');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid Credentials');

    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'datahub');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.href).toBe('/search?q=orders'));
    expect(calls.filter((c) => c.url === '/logIn').map((c) => c.body)).toEqual([
      { username: 'datahub', password: 'nope' },
      { username: 'datahub', password: 'datahub' },
    ]);
  });

  it('never follows a redirect to another site after signing in', async () => {
    stubFetch(
      {
        getMe: ME,
        getEntityCounts: { getEntityCounts: { counts: [] } },
        getPlatformCounts: { aggregateAcrossEntities: { facets: [] } },
      },
      {
        '/logIn': () => json(200, { accessToken: 'token' }),
      },
    );
    const { router } = await renderApp('/login?redirect=%2F%2Fevil.example%2F');
    await userEvent.type(await screen.findByLabelText('Username'), 'datahub');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.href).toBe('/'));
  });

  it('signs out through the catalog’s logout, which ends the session on the server', async () => {
    stubFetch({
      getMe: ME,
      getEntityCounts: { getEntityCounts: { counts: [{ entityType: 'DATASET', count: 3 }] } },
      getPlatformCounts: { aggregateAcrossEntities: { facets: [] } },
    });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await renderApp('/');
    await screen.findByRole('link', { name: /3\s*Datasets/ });
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(assign).toHaveBeenCalledWith('/logOut');
  });
});
