import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { SoftDeletion } from './soft-deletion.js';

const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)';

function setup() {
  const store = new MemoryStore()
    .put(A, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'a', origin: 'PROD' })
    .put(B, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'b', origin: 'PROD' });
  const deps = fakeApplicationDeps(
    { [ALICE]: { [A]: ['DELETE_ENTITY'] }, [BOB]: { '*': ['DELETE_ENTITY'] } },
    store,
  );
  return { ...deps, soft: new SoftDeletion(deps.stored, deps.policy, deps.proposals) };
}

describe('SoftDeletion (batchUpdateSoftDeleted)', () => {
  it('needs the delete privilege on every asset, asked before anything is written', async () => {
    const { soft, written, asked } = setup();
    await expect(soft.setSoftDeleted(graphqlContext(ALICE), [A, B], true)).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    expect(written).toEqual([]);
    expect(asked.map((a) => a.resourceUrn)).toEqual([A, B]);
    await soft.setSoftDeleted(graphqlContext(ALICE), [A], true);
    expect(writesOf(written)).toEqual([`${A} status PATCH`]);
    expect(written[0]?.patch?.operations).toEqual([{ op: 'add', path: '/removed', value: true }]);
  });

  it('refuses assets that do not exist, writing nothing', async () => {
    const { soft, written } = setup();
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)';
    await expect(soft.setSoftDeleted(graphqlContext(BOB), [A, absent], false)).rejects.toThrow(
      `Failed to soft delete entity with urn ${absent}. Entity does not exist.`,
    );
    expect(written).toEqual([]);
  });
});
