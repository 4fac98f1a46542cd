import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { UserProfileEdits } from './user-profile-edits.js';

const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const CAROL = 'urn:li:corpuser:carol';

function users() {
  return new MemoryStore()
    .put(ALICE, 'corpUserKey', { username: 'alice' })
    .put(BOB, 'corpUserKey', { username: 'bob' });
}

describe('UserProfileEdits (updateCorpUserProperties)', () => {
  it('lets a user edit their own profile: one patch of the fields given, nothing else', async () => {
    const deps = fakeApplicationDeps({}, users());
    const edits = new UserProfileEdits(deps.stored, deps.policy, deps.proposals);
    expect(
      await edits.update(graphqlContext(ALICE), ALICE, { aboutMe: 'Hi', title: null, teams: ['a'] }),
    ).toBe(ALICE);
    expect(writesOf(deps.written)).toEqual([`${ALICE} corpUserEditableInfo PATCH`]);
    expect(deps.written[0]?.patch?.operations).toEqual([
      { op: 'add', path: '/aboutMe', value: 'Hi' },
      { op: 'add', path: '/teams', value: ['a'] },
    ]);
  });

  it("refuses another user's profile without EDIT_ENTITY or the edit's own privilege, writing nothing", async () => {
    const deps = fakeApplicationDeps({}, users());
    const edits = new UserProfileEdits(deps.stored, deps.policy, deps.proposals);
    await expect(edits.update(graphqlContext(BOB), ALICE, { aboutMe: 'hacked' })).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    expect(deps.written).toEqual([]);
    expect(deps.asked.at(-1)).toMatchObject({
      privileges: ['EDIT_ENTITY', 'EDIT_USER_PROFILE'],
      resourceUrn: ALICE,
    });
  });

  it('asks EDIT_CONTACT_INFO for contact details, and lets who holds it edit them', async () => {
    const deps = fakeApplicationDeps({ [BOB]: { [ALICE]: ['EDIT_CONTACT_INFO'] } }, users());
    const edits = new UserProfileEdits(deps.stored, deps.policy, deps.proposals);
    await edits.update(graphqlContext(BOB), ALICE, { slack: '@alice' });
    expect(writesOf(deps.written)).toEqual([`${ALICE} corpUserEditableInfo PATCH`]);
    await expect(edits.update(graphqlContext(BOB), ALICE, { title: 'Boss' })).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
  });

  it('refuses a user that does not exist (404) and a urn of another type (400)', async () => {
    const deps = fakeApplicationDeps({}, users());
    const edits = new UserProfileEdits(deps.stored, deps.policy, deps.proposals);
    await expect(edits.update(graphqlContext(CAROL), CAROL, { aboutMe: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      edits.update(graphqlContext(ALICE), 'urn:li:corpGroup:x', { aboutMe: 'x' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    expect(deps.written).toEqual([]);
  });
});
