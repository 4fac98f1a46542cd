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
