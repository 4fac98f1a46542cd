import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { ServiceAccounts } from './service-accounts.js';

const ADMIN = 'urn:li:corpuser:admin';
const EDITOR = 'urn:li:corpuser:editor';
const PERSON = 'urn:li:corpuser:person';

function setup() {
  const store = new MemoryStore().put(PERSON, 'corpUserKey', { username: 'person' });
  const deps = fakeApplicationDeps(
    { [ADMIN]: { '*': ['MANAGE_SERVICE_ACCOUNTS'] }, [EDITOR]: { '*': ['EDIT_ENTITY', 'MANAGE_SECRETS'] } },
    store,
  );
  return { ...deps, accounts: new ServiceAccounts(deps.stored, deps.policy, deps.proposals) };
}

describe('ServiceAccounts', () => {
  it('every operation takes MANAGE_SERVICE_ACCOUNTS, asked before anything is read or written', async () => {
    const { accounts, written } = setup();
    const editor = graphqlContext(EDITOR);
    await expect(accounts.create(editor, {})).rejects.toThrow('Unauthorized to create service accounts');
    await expect(accounts.list(editor, {})).rejects.toThrow('Unauthorized to list service accounts');
    await expect(accounts.get(editor, PERSON)).rejects.toThrow('Unauthorized');
    await expect(accounts.delete(editor, PERSON)).rejects.toThrow('Unauthorized');
    expect(written).toEqual([]);
  });

  it('creates a user marked SERVICE_ACCOUNT, lists and gets it, and deletes it', async () => {
    const { accounts, written } = setup();
    const ctx = graphqlContext(ADMIN);
    const created = await accounts.create(ctx, { displayName: 'Bot', description: 'runs jobs' });
    expect(created.urn).toMatch(/^urn:li:corpuser:service_[0-9a-f-]{36}$/);
    expect(created).toMatchObject({ displayName: 'Bot', description: 'runs jobs', createdBy: ADMIN });
    expect(writesOf(written)).toEqual([
      `${created.urn} corpUserKey UPSERT`,
      `${created.urn} corpUserInfo UPSERT`,
      `${created.urn} subTypes UPSERT`,
    ]);
    const page = await accounts.list(ctx, {});
    expect(page.total).toBe(1);
    expect(page.serviceAccounts[0]).toMatchObject({
      urn: created.urn,
      displayName: 'Bot',
      description: 'runs jobs',
    });
    expect((await accounts.list(ctx, { query: 'bot' })).total).toBe(1);
    expect((await accounts.list(ctx, { query: 'nobody' })).total).toBe(0);
    expect(await accounts.get(ctx, created.urn)).toMatchObject({ urn: created.urn });
    expect(await accounts.get(ctx, 'urn:li:corpuser:service_absent')).toBeNull();
    expect(await accounts.delete(ctx, created.urn)).toBe(true);
    expect(writesOf(written).at(-1)).toBe(`${created.urn} corpUserKey DELETE`);
  });

  it('a person is not a service account: get and delete refuse it; an absent one is not found', async () => {
    const { accounts, written } = setup();
    const ctx = graphqlContext(ADMIN);
    await expect(accounts.get(ctx, PERSON)).rejects.toThrow('not a service account');
    await expect(accounts.delete(ctx, PERSON)).rejects.toThrow('not a service account');
    await expect(accounts.delete(ctx, 'urn:li:corpuser:service_absent')).rejects.toThrow('not found');
    expect(written).toEqual([]);
  });
});
