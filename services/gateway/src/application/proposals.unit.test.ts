import { describe, expect, it } from 'vitest';
import { checkProposal } from '@catalog/model';
import { fakeApplicationDeps, MemoryStore } from './admin-fakes.testing.js';
import type { RequestContext } from '@catalog/auth';

const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';

/** A Rest.li caller (REST API authorization off in the fakes, as an operator may run it). */
function restCaller(actorUrn: string): RequestContext {
  return {
    authentication: { actorUrn, actorId: actorUrn.split(':')[3]!, method: 'access-token', isSystem: false },
    origin: { sourceIp: '127.0.0.1', userAgent: 'test', eventSource: 'RESTLI', traceId: '0'.repeat(32) },
  };
}

const credentials = checkProposal({
  entityType: 'corpuser',
  entityUrn: BOB,
  changeType: 'UPSERT',
  aspectName: 'corpUserCredentials',
  aspect: { contentType: 'application/json', value: JSON.stringify({ salt: 's', hashedPassword: 'h' }) },
});

describe('writing restricted aspects through the generic routes', () => {
  it("setting another user's password hash needs MANAGE_USER_CREDENTIALS, even with REST authorization off", async () => {
    const { proposals, written } = fakeApplicationDeps({ [ALICE]: { '*': ['MANAGE_USERS_AND_GROUPS'] } });
    await expect(proposals.propose(restCaller(ALICE), [credentials], { sync: true })).rejects.toThrow(
      'Writing corpUserCredentials (secret material) needs MANAGE_USER_CREDENTIALS',
    );
    expect(written).toEqual([]);
  });

  it('lets a holder of MANAGE_USER_CREDENTIALS restore credentials (a backup ingested back)', async () => {
    const { proposals, written } = fakeApplicationDeps({ [ALICE]: { '*': ['MANAGE_USER_CREDENTIALS'] } });
    await proposals.propose(restCaller(ALICE), [credentials], { sync: true });
    expect(written.map((p) => p.aspect.name)).toEqual(['corpUserCredentials']);
  });

  it('deleting a restricted aspect asks only the delete privileges', async () => {
    const remove = checkProposal({
      entityType: 'corpuser',
      entityUrn: BOB,
      changeType: 'DELETE',
      aspectName: 'corpUserCredentials',
    });
    const { proposals, written } = fakeApplicationDeps({});
    await proposals.propose(restCaller(ALICE), [remove], { sync: true });
    expect(written).toHaveLength(1);
  });
});

describe('granting roles through the generic routes', () => {
  const ADMIN_ROLE = 'urn:li:dataHubRole:Admin';
  const GROUP = 'urn:li:corpGroup:owned';
  const roles = (r: string[]) =>
    checkProposal({
      entityType: 'corpGroup',
      entityUrn: GROUP,
      changeType: 'UPSERT',
      aspectName: 'roleMembership',
      aspect: { contentType: 'application/json', value: JSON.stringify({ roles: r }) },
    });
  const reader = 'urn:li:dataHubRole:Reader';

  it('adding a role needs MANAGE_POLICIES on the entity, whatever edit privileges the actor holds', async () => {
    const store = new MemoryStore().put(GROUP, 'roleMembership', { roles: [reader] });
    const { proposals, written } = fakeApplicationDeps(
      { [ALICE]: { '*': ['MANAGE_USERS_AND_GROUPS', 'EDIT_ENTITY'] }, [BOB]: { '*': ['MANAGE_POLICIES'] } },
      store,
    );
    await expect(
      proposals.propose(restCaller(ALICE), [roles([reader, ADMIN_ROLE])], { sync: true }),
    ).rejects.toThrow(`Unauthorized to grant roles ${ADMIN_ROLE} (requires MANAGE_POLICIES on ${GROUP})`);
    expect(written).toEqual([]);
    // Re-ingesting what the entity already holds, or dropping a role, grants nothing.
    await proposals.propose(restCaller(ALICE), [roles([reader])], { sync: true });
    await proposals.propose(restCaller(ALICE), [roles([])], { sync: true });
    await proposals.propose(restCaller(BOB), [roles([ADMIN_ROLE])], { sync: true });
    expect(written).toHaveLength(3);
  });
});

describe('adding users to groups through the generic routes', () => {
  const GROUP = 'urn:li:corpGroup:owned';
  const OTHER = 'urn:li:corpGroup:other';
  const native = (member: string, groups: string[]) =>
    checkProposal({
      entityType: 'corpuser',
      entityUrn: member,
      changeType: 'UPSERT',
      aspectName: 'nativeGroupMembership',
      aspect: { contentType: 'application/json', value: JSON.stringify({ nativeGroups: groups }) },
    });
  const patch = (member: string, operations: unknown[]) =>
    checkProposal({
      entityType: 'corpuser',
      entityUrn: member,
      changeType: 'PATCH',
      aspectName: 'groupMembership',
      // As the SDK and addGroupMembers send membership patches: the group list keyed by its urns.
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({ patch: operations, arrayPrimaryKeys: { groups: [] } }),
      },
    });
  // ALICE owns GROUP (EDIT_GROUP_MEMBERS on it) and may edit every user; BOB is an admin.
  const grants = {
    [ALICE]: { [GROUP]: ['EDIT_GROUP_MEMBERS'], '*': ['EDIT_ENTITY'] },
    [BOB]: { '*': ['MANAGE_USERS_AND_GROUPS'] },
  };

  it('adding someone else needs EDIT_GROUP_MEMBERS on every group added, whatever edit rights on the user', async () => {
    const { proposals, written } = fakeApplicationDeps(grants);
    await proposals.propose(restCaller(ALICE), [native(BOB, [GROUP])], { sync: true });
    await expect(
      proposals.propose(restCaller(ALICE), [native(BOB, [GROUP, OTHER])], { sync: true }),
    ).rejects.toThrow(`Unauthorized to grant groups [${OTHER}] (requires EDIT_GROUP_MEMBERS on [${OTHER}])`);
    expect(written).toHaveLength(1);
  });

  it('adding oneself needs MANAGE_USERS_AND_GROUPS, by a whole value or by a patch; removals pass', async () => {
    const store = new MemoryStore().put(ALICE, 'groupMembership', { groups: [OTHER] });
    const { proposals, written } = fakeApplicationDeps(grants, store);
    await expect(
      proposals.propose(restCaller(ALICE), [native(ALICE, [GROUP])], { sync: true }),
    ).rejects.toThrow(
      `Unauthorized to grant groups [${GROUP}] to self on ${ALICE} (self grants require MANAGE_USERS_AND_GROUPS)`,
    );
    const addSelf = patch(ALICE, [{ op: 'add', path: `/groups/${GROUP}`, value: GROUP }]);
    await expect(proposals.propose(restCaller(ALICE), [addSelf], { sync: true })).rejects.toThrow(
      'self grants require MANAGE_USERS_AND_GROUPS',
    );
    expect(written).toEqual([]);
    // Leaving a group, or writing back what one holds, grants nothing.
    await proposals.propose(restCaller(ALICE), [patch(ALICE, [{ op: 'remove', path: `/groups/${OTHER}` }])], {
      sync: true,
    });
    await proposals.propose(restCaller(ALICE), [native(ALICE, [])], { sync: true });
    await proposals.propose(restCaller(BOB), [native(BOB, [GROUP, OTHER])], { sync: true });
    expect(written).toHaveLength(3);
  });

  it('a patch that cannot be applied is decided with MANAGE_USERS_AND_GROUPS', async () => {
    const { proposals } = fakeApplicationDeps(grants);
    const unreadable = patch(BOB, [{ op: 'replace', path: '/groups/0/nested', value: GROUP }]);
    await expect(proposals.propose(restCaller(ALICE), [unreadable], { sync: true })).rejects.toThrow(
      'MANAGE_USERS_AND_GROUPS is required',
    );
  });
});
