/** @vitest-environment jsdom */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ME, renderApp, stubFetch } from '../test/render';

const URN = 'urn:li:dashboard:(looker,sales)';

describe('the page of an entity of another family', () => {
  it('shows a dashboard’s platform, description, tags, terms, owners and domain, with tag edits where allowed', async () => {
    stubFetch({
      getMe: ME,
      getEntityDetails: {
        entity: {
          urn: URN,
          type: 'DASHBOARD',
          properties: { name: 'Sales overview', description: 'Weekly *sales*' },
          platform: {
            urn: 'urn:li:dataPlatform:looker',
            name: 'looker',
            properties: { displayName: 'Looker' },
          },
          tags: { tags: [{ tag: { urn: 'urn:li:tag:kpi', name: 'kpi', properties: null } }] },
          glossaryTerms: {
            terms: [{ term: { urn: 'urn:li:glossaryTerm:Revenue', name: 'Revenue', properties: null } }],
          },
          ownership: {
            owners: [
              {
                type: 'BUSINESS_OWNER',
                owner: {
                  urn: 'urn:li:corpGroup:sales',
                  type: 'CORP_GROUP',
                  name: 'sales',
                  properties: { displayName: 'Sales team' },
                },
              },
            ],
          },
          domain: { domain: { urn: 'urn:li:domain:sales', properties: { name: 'Sales' } } },
          privileges: { canEditTags: true },
        },
      },
    });
    await renderApp(`/entity/${encodeURIComponent(URN)}`);
    await screen.findByRole('heading', { level: 1, name: 'Sales overview' });
    expect(screen.getByText('Dashboard · Looker')).toBeTruthy();
    expect(screen.getByText('sales', { selector: 'em' })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Tags' })).getByText('kpi')).toBeTruthy();
    expect(screen.getByLabelText('Tag to add')).toBeTruthy();
    expect(screen.getByText('Revenue')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sales team' })).toBeTruthy();
    expect(screen.getByText(/Business owner/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sales' })).toBeTruthy();
  });
});
