import { describe, expect, it } from 'vitest';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { EntityCreation } from './entity-creation.js';
import { LabelEdits } from './label-edits.js';
import { LinkEdits } from './link-edits.js';
import { MetadataEdits } from './metadata-edits.js';
import { MetadataTests } from './metadata-tests.js';
import { PolicyAdmin } from './policies.js';
import type { PolicyUpdateInput } from './policy-info.js';
import { StructuredPropertyAdmin } from './structured-property-admin.js';
import { UserAdmin } from './users.js';
import type { EntitySearch } from './entity-search.js';

const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
const OTHER_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)';
const TAG = 'urn:li:tag:pii';
const GROUP = 'urn:li:corpGroup:eng';

function catalog() {
  return new MemoryStore()
    .put(DATASET, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'db.t', origin: 'PROD' })
    .put(OTHER_DATASET, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'db.u', origin: 'PROD' })
    .put(TAG, 'tagKey', { name: 'pii' })
    .put(ALICE, 'corpUserKey', { username: 'alice' })
    .put(BOB, 'corpUserKey', { username: 'bob' })
    .put(GROUP, 'corpGroupKey', { name: 'eng' });
}

describe('LabelEdits (tags, terms, owners)', () => {
  it('tagging needs the tag privilege on every resource, asked before anything is read or written', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { [DATASET]: ['EDIT_ENTITY_TAGS'] } }, catalog());
    const labels = new LabelEdits(deps.stored, deps.policy, deps.proposals);
    const resources = [{ resourceUrn: DATASET }, { resourceUrn: OTHER_DATASET }];
    await expect(labels.changeTags(graphqlContext(ALICE), true, [TAG], resources)).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    // Refused before the missing entity is noticed: a denial does not tell what exists.
    await expect(
      labels.changeTags(graphqlContext(BOB), true, [TAG], [{ resourceUrn: 'urn:li:dataset:(x,y,PROD)' }]),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(deps.written).toEqual([]);
    await labels.changeTags(graphqlContext(ALICE), true, [TAG], [{ resourceUrn: DATASET }]);
    expect(writesOf(deps.written)).toEqual([`${DATASET} globalTags PATCH`]);
  });

  it('a schema field’s tags need the column privilege (or EDIT_ENTITY), not the entity one', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { [DATASET]: ['EDIT_ENTITY_TAGS'] } }, catalog());
    const labels = new LabelEdits(deps.stored, deps.policy, deps.proposals);
    const field = { resourceUrn: DATASET, subResourceType: 'DATASET_FIELD', subResource: 'id' };
    await expect(labels.changeTags(graphqlContext(ALICE), true, [TAG], [field])).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    expect(deps.asked.at(-1)?.privileges).toEqual(['EDIT_DATASET_COL_TAGS', 'EDIT_ENTITY']);
  });

  it('adds existing owners only, with the owners privilege', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { '*': ['EDIT_ENTITY_OWNERS'] } }, catalog());
    const labels = new LabelEdits(deps.stored, deps.policy, deps.proposals);
    const owner = { ownerUrn: 'urn:li:corpuser:ghost', ownerEntityType: 'CORP_USER' };
    await expect(
      labels.addOwners(graphqlContext(ALICE), [owner], [{ resourceUrn: DATASET }]),
    ).rejects.toThrow('it does not exist');
    await labels.addOwners(graphqlContext(ALICE), [{ ...owner, ownerUrn: BOB }], [{ resourceUrn: DATASET }]);
    expect(writesOf(deps.written)).toEqual([`${DATASET} ownership PATCH`]);
  });
});

describe('MetadataEdits and EntityCreation', () => {
  it('each edit asks its own privilege on the entity; creations ask the platform privilege', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { [DATASET]: ['EDIT_ENTITY_DOCS'] } }, catalog());
    const edits = new MetadataEdits(deps.stored, deps.policy, deps.proposals);
    const creation = new EntityCreation(deps.policy, deps.proposals);
    const ctx = graphqlContext(ALICE);
    await edits.updateDescription(ctx, { resourceUrn: DATASET, description: 'd' });
    await expect(
      new LinkEdits(deps.stored, deps.policy, deps.proposals).addLink(ctx, DATASET, {
        url: 'https://x',
        label: 'x',
      }),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(edits.setDomain(ctx, DATASET, null)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(
      edits.updateDescription(ctx, { resourceUrn: OTHER_DATASET, description: 'd' }),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(creation.createTag(ctx, { name: 't' })).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(writesOf(deps.written)).toEqual([`${DATASET} editableDatasetProperties PATCH`]);
  });

  it('deleting a tag takes DELETE_ENTITY or MANAGE_TAGS on it', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { [TAG]: ['DELETE_ENTITY'] } }, catalog());
    const creation = new EntityCreation(deps.policy, deps.proposals);
    await expect(creation.deleteTag(graphqlContext(BOB), TAG)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await creation.deleteTag(graphqlContext(ALICE), TAG);
    expect(writesOf(deps.written)).toEqual([`${TAG} tagKey DELETE`]);
  });
});

describe('UserAdmin', () => {
  function users(grants: Parameters<typeof fakeApplicationDeps>[0], store = catalog()) {
    const deps = fakeApplicationDeps(grants, store);
    const forgotten: string[] = [];
    const auth = {
      actors: { invalidate: (urn: string) => forgotten.push(urn) },
      authorizer: { invalidateActor: () => undefined },
    } as unknown as GatewayAuth;
    const admin = new UserAdmin(auth, {} as EntitySearch, deps.stored, deps.policy, deps.proposals);
    return { ...deps, admin, forgotten };
  }

  it('suspending a user takes MANAGE_USERS_AND_GROUPS, and the user’s cached state is dropped', async () => {
    const { admin, written, forgotten } = users({ [ALICE]: { '*': ['MANAGE_USERS_AND_GROUPS'] } });
    await expect(admin.setStatus(graphqlContext(BOB), ALICE, 'SUSPENDED')).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    expect(written).toEqual([]);
    await admin.setStatus(graphqlContext(ALICE), BOB, 'SUSPENDED');
    expect(writesOf(written)).toEqual([`${BOB} corpUserStatus UPSERT`]);
    expect(forgotten).toEqual([BOB]);
    await expect(admin.setStatus(graphqlContext(ALICE), 'urn:li:corpuser:ghost', 'ACTIVE')).rejects.toThrow(
      'does not exist',
    );
  });

  it('a group’s members change with EDIT_GROUP_MEMBERS on that group, not on another', async () => {
    const { admin, written } = users({ [ALICE]: { [GROUP]: ['EDIT_GROUP_MEMBERS'] } });
    await admin.addGroupMembers(graphqlContext(ALICE), GROUP, [BOB]);
    expect(writesOf(written)).toEqual([`${BOB} nativeGroupMembership PATCH`]);
    await expect(
      admin.addGroupMembers(graphqlContext(ALICE), 'urn:li:corpGroup:other', [BOB]),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
  });

  it('adding oneself to a group takes MANAGE_USERS_AND_GROUPS, even for an owner who may edit its members', async () => {
    const CAROL = 'urn:li:corpuser:carol';
    const store = catalog()
      .put(CAROL, 'corpUserKey', { username: 'carol' })
      .put(BOB, 'nativeGroupMembership', { nativeGroups: [GROUP] });
    const { admin, written } = users(
      {
        // An owner of the group: EDIT_GROUP_MEMBERS (and EDIT_ENTITY) on it through the asset-owners policy.
        [ALICE]: { [GROUP]: ['EDIT_GROUP_MEMBERS', 'EDIT_ENTITY'] },
        [BOB]: { [GROUP]: ['EDIT_GROUP_MEMBERS'] },
        // An admin.
        [CAROL]: { '*': ['MANAGE_USERS_AND_GROUPS'] },
      },
      store,
    );
    // The owner adds someone else, but not themselves (nor themselves among others).
    await expect(admin.addGroupMembers(graphqlContext(ALICE), GROUP, [ALICE])).rejects.toThrow(
      `Unauthorized to grant groups [${GROUP}] to self on ${ALICE} (self grants require MANAGE_USERS_AND_GROUPS)`,
    );
    await expect(admin.addGroupMembers(graphqlContext(ALICE), GROUP, [CAROL, ALICE])).rejects.toThrow(
      'self grants require MANAGE_USERS_AND_GROUPS',
    );
    expect(written).toEqual([]);
    await admin.addGroupMembers(graphqlContext(ALICE), GROUP, [CAROL]);
    expect(writesOf(written)).toEqual([`${CAROL} nativeGroupMembership PATCH`]);
    // Re-adding a member one already is grants nothing.
    await admin.addGroupMembers(graphqlContext(BOB), GROUP, [BOB]);
    // No role at all: refused before anything else, with the ecosystem's text.
    await expect(
      admin.addGroupMembers(graphqlContext('urn:li:corpuser:nobody'), GROUP, ['urn:li:corpuser:nobody']),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    // The admin adds themselves.
    await admin.addGroupMembers(graphqlContext(CAROL), GROUP, [CAROL]);
    expect(writesOf(written)).toHaveLength(3);
  });

  it('EDIT_ENTITY on a group opens the mutation, but adding a member takes EDIT_GROUP_MEMBERS', async () => {
    const { admin, written } = users({ [ALICE]: { [GROUP]: ['EDIT_ENTITY'] } });
    await expect(admin.addGroupMembers(graphqlContext(ALICE), GROUP, [BOB])).rejects.toThrow(
      `Unauthorized to grant groups [${GROUP}] (requires EDIT_GROUP_MEMBERS on [${GROUP}])`,
    );
    expect(written).toEqual([]);
  });

  it('assigning a role takes MANAGE_POLICIES, refused with the ecosystem’s role text', async () => {
    const { admin } = users({ [ALICE]: { '*': ['MANAGE_USERS_AND_GROUPS'] } });
    await expect(admin.assignRole(graphqlContext(ALICE), null, [BOB])).rejects.toThrow(
      'Unauthorized to assign roles.',
    );
  });
});

describe('PolicyAdmin', () => {
  const INPUT: PolicyUpdateInput = {
    type: 'PLATFORM',
    name: 'everything',
    state: 'ACTIVE',
    privileges: ['MANAGE_POLICIES'],
    actors: { users: [BOB], resourceOwners: false, allUsers: false, allGroups: false },
  };

  it('granting oneself a policy without MANAGE_POLICIES is refused, and nothing is written', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { '*': ['MANAGE_POLICIES'] } });
    let invalidations = 0;
    const auth = { authorizer: { invalidatePolicies: () => invalidations++ } } as unknown as GatewayAuth;
    const policies = new PolicyAdmin(auth, deps.stored, deps.policy, deps.proposals);
    await expect(policies.create(graphqlContext(BOB), INPUT)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(
      policies.list(graphqlContext(BOB), { filter: { or: [] }, start: 0, count: 10 }),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(deps.written).toEqual([]);
    const urn = await policies.create(graphqlContext(ALICE), INPUT);
    expect(writesOf(deps.written)).toEqual([`${urn} dataHubPolicyInfo UPSERT`]);
    expect(invalidations).toBe(1);
    const listed = await policies.list(graphqlContext(ALICE), { filter: { or: [] }, start: 0, count: 10 });
    expect(listed.policies.map((p) => p.urn)).toEqual([urn]);
  });
});

describe('MetadataTests and StructuredPropertyAdmin', () => {
  it('listing tests takes VIEW_TESTS or MANAGE_TESTS; writing them MANAGE_TESTS', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { '*': ['VIEW_TESTS'] } });
    const tests = new MetadataTests({} as never, deps.stored, deps.policy, deps.proposals);
    expect(await tests.list(graphqlContext(ALICE), { start: 0, count: 5 })).toEqual({ total: 0, tests: [] });
    await expect(tests.list(graphqlContext(BOB), { start: 0, count: 5 })).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    await expect(tests.delete(graphqlContext(ALICE), 'urn:li:test:x')).rejects.toThrow(UNAUTHORIZED_MESSAGE);
  });

  it('defining a property takes MANAGE_STRUCTURED_PROPERTIES; setting values, the properties privilege on the asset', async () => {
    const deps = fakeApplicationDeps({ [ALICE]: { [DATASET]: ['EDIT_ENTITY_PROPERTIES'] } }, catalog());
    const properties = new StructuredPropertyAdmin(deps.stored, deps.policy, deps.proposals);
    await expect(
      properties.create(graphqlContext(ALICE), {
        valueType: 'urn:li:dataType:datahub.string',
        entityTypes: [],
      }),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    const remove = (assetUrn: string) => ({
      assetUrn,
      structuredPropertyUrns: ['urn:li:structuredProperty:p'],
    });
    await expect(properties.removeValues(graphqlContext(ALICE), remove(OTHER_DATASET))).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    expect((await properties.removeValues(graphqlContext(ALICE), remove(DATASET))).urn).toBe(DATASET);
    expect(writesOf(deps.written)).toEqual([`${DATASET} structuredProperties PATCH`]);
  });
});
