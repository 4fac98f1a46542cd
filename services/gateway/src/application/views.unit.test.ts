import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { ServiceAccounts } from './service-accounts.js';
import { viewFilterOf, Views, type ViewDefinition } from './views.js';

const ADMIN = 'urn:li:corpuser:admin';
const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';

const definition: ViewDefinition = {
  entityTypes: ['dataset', 'dashboard'],
  filter: {
    operator: 'AND',
    filters: [{ field: 'tags', values: ['urn:li:tag:test'], negated: false, condition: 'EQUAL' }],
  },
};

function setup() {
  const deps = fakeApplicationDeps({
    [ADMIN]: { '*': ['MANAGE_GLOBAL_VIEWS', 'MANAGE_SERVICE_ACCOUNTS'] },
  });
  return { ...deps, views: new Views(deps.stored, deps.policy, deps.proposals) };
}

describe('Views', () => {
  it('anyone creates a personal view; a global one takes MANAGE_GLOBAL_VIEWS', async () => {
    const { views, written } = setup();
    await expect(
      views.create(graphqlContext(ALICE), { viewType: 'GLOBAL', name: 'g', definition }),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(written).toEqual([]);
    const mine = await views.create(graphqlContext(ALICE), {
      viewType: 'PERSONAL',
      name: 'mine',
      definition,
    });
    expect(mine.info).toMatchObject({ type: 'PERSONAL', created: { actor: ALICE } });
    expect(mine.info.definition.filter).toEqual({
      or: [
        {
          and: [
            {
              field: 'tags',
              value: 'urn:li:tag:test',
              values: ['urn:li:tag:test'],
              condition: 'EQUAL',
              negated: false,
            },
          ],
        },
      ],
    });
    await views.create(graphqlContext(ADMIN), { viewType: 'GLOBAL', name: 'global', definition });
    expect((await views.listMine(graphqlContext(ALICE), {})).views.map((v) => v.info.name)).toEqual(['mine']);
    expect((await views.listMine(graphqlContext(BOB), {})).total).toBe(0);
    expect((await views.listGlobal(graphqlContext(BOB), {})).views.map((v) => v.info.name)).toEqual([
      'global',
    ]);
  });

  it('a personal view is changed and deleted by its creator only; a global one by who manages them', async () => {
    const { views, written } = setup();
    const mine = await views.create(graphqlContext(ALICE), {
      viewType: 'PERSONAL',
      name: 'mine',
      definition,
    });
    const global = await views.create(graphqlContext(ADMIN), { viewType: 'GLOBAL', name: 'g', definition });
    await expect(views.update(graphqlContext(BOB), mine.urn, { name: 'x' })).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    await expect(views.delete(graphqlContext(ADMIN), mine.urn)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(views.delete(graphqlContext(BOB), global.urn)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    const or = {
      ...definition,
      filter: {
        operator: 'OR' as const,
        filters: [
          ...definition.filter.filters,
          { field: 'glossaryTerms', values: ['urn:li:glossaryTerm:t'] },
        ],
      },
    };
    const updated = await views.update(graphqlContext(ALICE), mine.urn, { name: 'renamed', definition: or });
    expect(updated.info.name).toBe('renamed');
    expect(viewFilterOf(updated.info).operator).toBe('OR');
    expect(viewFilterOf(updated.info).filters.map((f) => f['field'])).toEqual(['tags', 'glossaryTerms']);
    expect(await views.delete(graphqlContext(ADMIN), global.urn)).toBe(true);
    expect(writesOf(written).at(-1)).toBe(`${global.urn} dataHubViewKey DELETE`);
    await expect(views.update(graphqlContext(ALICE), 'urn:li:dataHubView:absent', {})).rejects.toThrow(
      'does not exist',
    );
  });

  it('a service account’s default view must be a global view', async () => {
    const { views, stored, policy, proposals } = setup();
    const accounts = new ServiceAccounts(stored, policy, proposals);
    const admin = graphqlContext(ADMIN);
    const account = await accounts.create(admin, { displayName: 'bot' });
    const personal = await views.create(admin, { viewType: 'PERSONAL', name: 'p', definition });
    const global = await views.create(admin, { viewType: 'GLOBAL', name: 'g', definition });
    await expect(accounts.setDefaultView(admin, account.urn, personal.urn)).rejects.toThrow(
      'not a global view',
    );
    await expect(accounts.setDefaultView(graphqlContext(ALICE), account.urn, global.urn)).rejects.toThrow(
      'Unauthorized',
    );
    await accounts.setDefaultView(admin, account.urn, global.urn);
    expect((await accounts.get(admin, account.urn))?.defaultViewUrn).toBe(global.urn);
    await accounts.setDefaultView(admin, account.urn, null);
    expect((await accounts.get(admin, account.urn))?.defaultViewUrn).toBeNull();
  });
});
