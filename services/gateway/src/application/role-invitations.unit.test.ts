import { describe, expect, it } from 'vitest';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { RoleInvitations } from './role-invitations.js';

const ALICE = 'urn:li:corpuser:alice';
const READER = 'urn:li:dataHubRole:Reader';
const TOKENS: Record<string, { role: string | null }> = { good: { role: READER }, roleless: { role: null } };

function setup() {
  const deps = fakeApplicationDeps({}, new MemoryStore().put(ALICE, 'corpUserKey', { username: 'alice' }));
  const forgotten: string[] = [];
  const auth = {
    actors: { invalidate: (urn: string) => forgotten.push(urn) },
    authorizer: { invalidateActor: (urn: string) => forgotten.push(urn) },
  } as unknown as Pick<GatewayAuth, 'actors' | 'authorizer'>;
  const nativeUsers = { inviteTokenRole: async (token: string) => TOKENS[token] };
  return { deps, forgotten, invitations: new RoleInvitations(auth, nativeUsers, deps.proposals) };
}

describe('RoleInvitations (acceptRole)', () => {
  it("gives a user without any privilege the invite's role, and forgets what it knew of their roles", async () => {
    const { deps, forgotten, invitations } = setup();
    expect(await invitations.accept(graphqlContext(ALICE), 'good')).toBe(true);
    expect(writesOf(deps.written)).toEqual([`${ALICE} roleMembership UPSERT`]);
    expect(deps.written[0]?.value).toEqual({ roles: [READER] });
    expect(deps.asked).toEqual([]);
    expect(forgotten).toEqual([ALICE, ALICE]);
  });

  it('refuses a token that is not a valid one (400), and a role-less invite changes nothing', async () => {
    const { deps, invitations } = setup();
    await expect(invitations.accept(graphqlContext(ALICE), 'forged')).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    expect(await invitations.accept(graphqlContext(ALICE), 'roleless')).toBe(true);
    expect(deps.written).toEqual([]);
  });
});
