import { describe, expect, it } from 'vitest';
import { ALICE, BOB, engineWith, ENGINEERS, ORDERS, USERS_TABLE } from './policy-engine-fixtures.testing.js';
import { policy } from './policy-fakes.testing.js';

const TECHNICAL_OWNER = 'urn:li:ownershipType:__system__technical_owner';
const BUSINESS_OWNER = 'urn:li:ownershipType:__system__business_owner';

describe('PolicyEngine ownership', () => {
  const ownersPolicy = (resourceOwnersTypes?: readonly string[]) =>
    policy('owners', {
      privileges: ['EDIT_ENTITY_OWNERS'],
      actors: { resourceOwners: true, ...(resourceOwnersTypes ? { resourceOwnersTypes } : {}) },
    });

  it('grants the owners of a resource, on that resource only', async () => {
    const { allowed } = engineWith({
      policies: [ownersPolicy()],
      resources: { [ORDERS]: { owners: [{ owner: ALICE, typeUrn: BUSINESS_OWNER }] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: USERS_TABLE })).toBe(false);
    expect(await allowed({ actorUrn: BOB, privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: ORDERS })).toBe(
      false,
    );
    expect(await allowed({ privileges: ['EDIT_ENTITY_OWNERS'] })).toBe(false);
  });

  it('grants only owners of a listed ownership type when the policy names types', async () => {
    const { allowed } = engineWith({
      policies: [ownersPolicy([TECHNICAL_OWNER])],
      resources: {
        [ORDERS]: { owners: [{ owner: ALICE, typeUrn: TECHNICAL_OWNER }] },
        [USERS_TABLE]: { owners: [{ owner: ALICE, typeUrn: BUSINESS_OWNER }, { owner: ALICE }] },
      },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: USERS_TABLE })).toBe(false);
  });

  it('grants an actor whose group owns the resource', async () => {
    const { allowed } = engineWith({
      policies: [ownersPolicy()],
      actors: { [ALICE]: { groups: [ENGINEERS] } },
      resources: { [ORDERS]: { owners: [{ owner: ENGINEERS }] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ actorUrn: BOB, privileges: ['EDIT_ENTITY_OWNERS'], resourceUrn: ORDERS })).toBe(
      false,
    );
  });
});

describe('PolicyEngine resource reads', () => {
  const tagged = policy('tagged', {
    privileges: ['EDIT_ENTITY'],
    actors: { allUsers: true },
    resources: { filter: { criteria: [{ field: 'TAG', values: ['urn:li:tag:gold'] }] } },
  });

  it('reads nothing about the resource when a policy without facts grants, wherever it is listed', async () => {
    const { allowed, resources } = engineWith({
      policies: [
        tagged,
        policy('owners', { privileges: ['EDIT_ENTITY'], actors: { resourceOwners: true } }),
        policy('datasets', {
          privileges: ['EDIT_ENTITY'],
          actors: { users: [ALICE] },
          resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'] }] } },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(resources.reads).toEqual([]);
  });

  it('reads a resource once per decision however many policies need it, and again for the next decision', async () => {
    const { allowed, resources } = engineWith({
      policies: [tagged, policy('owners', { privileges: ['EDIT_ENTITY'], actors: { resourceOwners: true } })],
      resources: { [ORDERS]: { owners: [{ owner: ALICE }] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(resources.reads).toEqual([ORDERS]);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(resources.reads).toEqual([ORDERS, ORDERS]);
  });

  it('reads nothing about an actor that a users or allUsers policy already matches', async () => {
    const { allowed, actors } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY'], actors: { users: [ALICE] } })],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(actors.reads).toEqual([]);
  });
});
