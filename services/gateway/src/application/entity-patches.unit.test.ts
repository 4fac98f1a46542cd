import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { EntityPatches } from './entity-patches.js';

const ADMIN = 'urn:li:corpuser:admin';
const EDITOR = 'urn:li:corpuser:editor';
const NOBODY = 'urn:li:corpuser:nobody';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,patched,PROD)';
const GROUP = 'urn:li:corpGroup:owned';
const ADMIN_ROLE = 'urn:li:dataHubRole:Admin';

function setup() {
  const store = new MemoryStore()
    .put(DATASET, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'patched', origin: 'PROD' })
    .put(GROUP, 'corpGroupKey', { name: 'owned' });
  const deps = fakeApplicationDeps(
    {
      [ADMIN]: { '*': ['EDIT_ENTITY', 'MANAGE_POLICIES'] },
      [EDITOR]: { [DATASET]: ['EDIT_ENTITY'], [GROUP]: ['EDIT_ENTITY'] },
    },
    store,
  );
  return { ...deps, patches: new EntityPatches(deps.policy, deps.proposals) };
}

const describeDataset = {
  urn: DATASET,
  entityType: 'dataset',
  aspectName: 'editableDatasetProperties',
  patch: [{ op: 'ADD', path: '/description', value: 'patched' }],
};
const grantAdmin = (urn: string) => ({
  urn,
  aspectName: 'roleMembership',
  patch: [{ op: 'ADD', path: `/roles/${ADMIN_ROLE}`, value: ADMIN_ROLE }],
  arrayPrimaryKeys: [{ arrayField: 'roles', keys: [] }],
  forceGenericPatch: true,
});

describe('EntityPatches (patchEntity, patchEntities)', () => {
  it('needs EDIT_ENTITY on the entity; a refusal is a failed result naming it, nothing written', async () => {
    const { patches, written } = setup();
    expect(await patches.patchOne(graphqlContext(NOBODY), describeDataset)).toEqual({
      urn: DATASET,
      name: null,
      success: false,
      error: `${NOBODY} is unauthorized to update entities.`,
    });
    expect(written).toEqual([]);
    expect(await patches.patchOne(graphqlContext(EDITOR), describeDataset)).toMatchObject({ success: true });
    expect(writesOf(written)).toEqual([`${DATASET} editableDatasetProperties PATCH`]);
    expect(written[0]?.patch?.operations).toEqual([{ op: 'add', path: '/description', value: 'patched' }]);
  });

  it('values are JSON text, or the string itself; the name a patch sets is echoed', async () => {
    const { patches, written } = setup();
    const result = await patches.patchOne(graphqlContext(ADMIN), {
      urn: DATASET,
      aspectName: 'datasetProperties',
      patch: [
        { op: 'ADD', path: '/name', value: 'plain text' },
        { op: 'ADD', path: '/customProperties', value: '{"a":"1"}' },
        { op: 'ADD', path: '/description', value: '' },
      ],
    });
    expect(result).toEqual({ urn: DATASET, name: 'plain text', success: true, error: null });
    expect(written[0]?.patch?.operations.map((o) => (o as { value: unknown }).value)).toEqual([
      'plain text',
      { a: '1' },
      '',
    ]);
  });

  it('EDIT_ENTITY on a group is not enough to grant it a role: MANAGE_POLICIES is', async () => {
    const { patches, written } = setup();
    const refused = await patches.patchOne(graphqlContext(EDITOR), grantAdmin(GROUP));
    expect(refused.success).toBe(false);
    expect(refused.error).toContain('MANAGE_POLICIES');
    expect(written).toEqual([]);
    const granted = await patches.patchOne(graphqlContext(ADMIN), grantAdmin(GROUP));
    expect(granted.error).toBeNull();
  });

  it('a batch is all or nothing: one refused entity fails every result', async () => {
    const { patches, written } = setup();
    const other = { ...describeDataset, urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)' };
    const results = await patches.patchMany(graphqlContext(EDITOR), [describeDataset, other]);
    expect(results.map((r) => [r.urn, r.success])).toEqual([
      [DATASET, false],
      [other.urn, false],
    ]);
    expect(results[0]?.error).toContain('is unauthorized to update entity');
    expect(written).toEqual([]);
    const done = await patches.patchMany(graphqlContext(ADMIN), [describeDataset, other]);
    expect(done.every((r) => r.success)).toBe(true);
  });

  it('a patch without a urn or of an unknown aspect fails with the reason', async () => {
    const { patches } = setup();
    expect(
      (await patches.patchOne(graphqlContext(ADMIN), { ...describeDataset, urn: null })).error,
    ).toContain('URN must be provided');
    expect(
      (await patches.patchOne(graphqlContext(ADMIN), { ...describeDataset, aspectName: 'noSuchAspect' }))
        .success,
    ).toBe(false);
  });
});
