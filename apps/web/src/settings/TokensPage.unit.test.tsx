/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ME, renderApp, stubFetch } from '../test/render';

describe('the access tokens page', () => {
  it('creates a token, shows its value once, lists it, and revokes it', async () => {
    let tokens: {
      urn: string;
      id: string;
      name: string;
      description: null;
      createdAt: number;
      expiresAt: number | null;
    }[] = [];
    const calls = stubFetch({
      getMe: ME,
      listAccessTokens: () => ({ listAccessTokens: { total: tokens.length, tokens } }),
      createAccessToken: (variables) => {
        const input = variables['input'] as { name: string };
        tokens = [
          {
            urn: 'urn:li:dataHubAccessToken:t1',
            id: 't1',
            name: input.name,
            description: null,
            createdAt: 0,
            expiresAt: null,
          },
        ];
        return { createAccessToken: { accessToken: 'secret-token-value', metadata: { id: 't1' } } };
      },
      revokeAccessToken: () => {
        tokens = [];
        return { revokeAccessToken: true };
      },
    });
    await renderApp('/settings/tokens');
    await screen.findByText('No tokens.');
    await userEvent.type(screen.getByLabelText('Name'), 'ci');
    await userEvent.selectOptions(screen.getByLabelText('Expires after'), 'ONE_DAY');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByLabelText('New token')).textContent).toBe('secret-token-value');
    expect(calls.find((c) => c.operation === 'createAccessToken')?.variables).toEqual({
      input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:datahub', name: 'ci', duration: 'ONE_DAY' },
    });
    // Listed for the signed-in user only.
    expect(calls.find((c) => c.operation === 'listAccessTokens')?.variables).toEqual({
      input: { start: 0, count: 100, filters: [{ field: 'ownerUrn', values: ['urn:li:corpuser:datahub'] }] },
    });
    const row = await screen.findByRole('row', { name: /ci/ });
    expect(within(row).getByText('Never')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Revoke token ci' }));
    await screen.findByText('No tokens.');
    expect(calls.find((c) => c.operation === 'revokeAccessToken')?.variables).toEqual({ tokenId: 't1' });
  });

  it('offers no creation to a user without the privilege to generate tokens', async () => {
    stubFetch({
      getMe: {
        me: {
          ...ME.me,
          platformPrivileges: { ...ME.me.platformPrivileges, generatePersonalAccessTokens: false },
        },
      },
      listAccessTokens: { listAccessTokens: { total: 0, tokens: [] } },
    });
    await renderApp('/settings/tokens');
    await screen.findByText('No tokens.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Create token' })).toBeNull());
    expect(screen.getByText(/needs the Generate Personal Access Tokens privilege/)).toBeTruthy();
  });
});
