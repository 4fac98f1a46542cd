import { describe, expect, it } from 'vitest';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { fakeApplicationDeps, graphqlContext, writesOf } from './admin-fakes.testing.js';
import { RoleAcceptance } from './role-acceptance.js';

const ALICE = 'urn:li:corpuser:alice';
const READER = 'urn:li:dataHubRole:Reader';
const TOKENS: Record<string, string | undefined> = { readertoken: READER, plaintoken: undefined };

function setup() {
  const deps = fakeApplicationDeps({});
  const forgotten: string[] = [];
  const auth = {
    actors: { invalidate: (urn: string) => forgotten.push(urn) },
    authorizer: { invalidateActor: () => undefined },
  } as unknown as GatewayAuth;
  const nativeUsers = {
    inviteTokenRole: async (token: string) => (token in TOKENS ? TOKENS[token] : null),
  };
  return { ...deps, forgotten, acceptance: new RoleAcceptance(auth, nativeUsers, deps.proposals) };
}

describe('RoleAcceptance (acceptRole)', () => {
  it('a user with no privilege takes the role of a valid invite token; their cached roles are dropped', async () => {
    const { acceptance, written, forgotten } = setup();
    await acceptance.accept(graphqlContext(ALICE), 'readertoken');
    expect(writesOf(written)).toEqual([`${ALICE} roleMembership UPSERT`]);
    expect(written[0]?.value).toEqual({ roles: [READER] });
    expect(forgotten).toEqual([ALICE]);
  });

  it('an invalid token grants nothing; a role-less token leaves the user without a role', async () => {
    const { acceptance, written } = setup();
    await expect(acceptance.accept(graphqlContext(ALICE), 'forged')).rejects.toThrow('is invalid');
    expect(written).toEqual([]);
    await acceptance.accept(graphqlContext(ALICE), 'plaintoken');
    expect(written[0]?.value).toEqual({ roles: [] });
  });
});
