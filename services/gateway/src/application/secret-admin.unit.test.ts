import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { SecretAdmin } from './secret-admin.js';

const MANAGER = 'urn:li:corpuser:manager';
const READER = 'urn:li:corpuser:reader';
const URN = 'urn:li:dataHubSecret:snowflake_password';

function setup() {
  const deps = fakeApplicationDeps({
    [MANAGER]: { '*': ['MANAGE_SECRETS'] },
    [READER]: { '*': ['VIEW_ANALYTICS', 'EDIT_ENTITY'] },
  });
  const secrets = new SecretAdmin(deps.stored, deps.policy, deps.proposals, 'unit-test-key');
  const stored = () => deps.store.entities.get(URN)?.get('dataHubSecretValue');
  return { ...deps, secrets, stored };
}

const input = { name: 'snowflake_password', value: 'hunter2', description: 'the warehouse' };

describe('SecretAdmin', () => {
  it('every operation takes MANAGE_SECRETS, asked before anything is read or written', async () => {
    const { secrets, written } = setup();
    const reader = graphqlContext(READER);
    for (const attempt of [
      () => secrets.create(reader, input),
      () => secrets.update(reader, { ...input, urn: URN }),
      () => secrets.delete(reader, URN),
      () => secrets.list(reader, {}),
      () => secrets.values(reader, ['snowflake_password']),
    ])
      await expect(attempt()).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(written).toEqual([]);
  });

  it('stores the value encrypted; only getSecretValues gives it back, and listings never', async () => {
    const { secrets, stored } = setup();
    const ctx = graphqlContext(MANAGER);
    expect(await secrets.create(ctx, input)).toBe(URN);
    const value = stored() as Record<string, unknown>;
    expect(value['value']).not.toContain('hunter2');
    expect(value).toMatchObject({ name: 'snowflake_password', description: 'the warehouse' });
    const page = await secrets.list(ctx, { query: 'snow' });
    expect(page).toEqual({
      start: 0,
      count: 1,
      total: 1,
      secrets: [{ urn: URN, name: 'snowflake_password', description: 'the warehouse' }],
    });
    expect(JSON.stringify(page)).not.toContain('hunter2');
    expect(await secrets.values(ctx, ['snowflake_password', 'absent'])).toEqual([
      { name: 'snowflake_password', value: 'hunter2' },
    ]);
  });

  it('refuses a name in use, updates an existing secret keeping its creation, deletes by urn', async () => {
    const { secrets, stored, written } = setup();
    const ctx = graphqlContext(MANAGER);
    await secrets.create(ctx, input);
    const created = (stored() as Record<string, unknown>)['created'];
    await expect(secrets.create(ctx, input)).rejects.toThrow('This Secret already exists!');
    await secrets.update(ctx, { urn: URN, name: 'snowflake_password', value: 'correct horse' });
    expect(stored()).toMatchObject({ created });
    expect(await secrets.values(ctx, ['snowflake_password'])).toEqual([
      { name: 'snowflake_password', value: 'correct horse' },
    ]);
    await expect(
      secrets.update(ctx, { urn: 'urn:li:dataHubSecret:absent', name: 'absent', value: 'x' }),
    ).rejects.toThrow("doesn't exists");
    expect(await secrets.delete(ctx, URN)).toBe(URN);
    expect(writesOf(written).at(-1)).toBe(`${URN} dataHubSecretKey DELETE`);
    await expect(secrets.delete(ctx, 'urn:li:dataset:(urn:li:dataPlatform:x,y,PROD)')).rejects.toThrow(
      'dataHubSecret',
    );
  });
});
