import { describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
  CHART,
  EDITOR,
  engineWith,
  ENGINEERS,
  ORDERS,
  USERS_TABLE,
} from './policy-engine-fixtures.testing.js';
import { PolicyEngine, SYSTEM_ACTOR_URN } from './policy-engine.js';
import {
  FakeActorDirectory,
  FakePolicySource,
  FakeResourceResolver,
  policy,
} from './policy-fakes.testing.js';

describe('PolicyEngine actor matching', () => {
  it('grants every user through an allUsers policy', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['VIEW_ENTITY_PAGE'], actors: { allUsers: true } })],
    });
    expect(await allowed({ actorUrn: BOB, privileges: ['VIEW_ENTITY_PAGE'], resourceUrn: ORDERS })).toBe(
      true,
    );
  });

  it('grants only the users a policy lists', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY'], actors: { users: [ALICE] } })],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ actorUrn: BOB, privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(false);
  });

  it('grants a member of a listed group, as the actor directory reports membership', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY'], actors: { groups: [ENGINEERS] } })],
      actors: { [ALICE]: { groups: [ENGINEERS] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ actorUrn: BOB, privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(false);
  });

  it('grants allGroups only to actors in at least one group', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY'], actors: { allGroups: true } })],
      actors: { [ALICE]: { groups: ['urn:li:corpGroup:any'] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'] })).toBe(true);
    expect(await allowed({ actorUrn: BOB, privileges: ['EDIT_ENTITY'] })).toBe(false);
  });

  it('grants holders of a listed role', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY_TAGS'], actors: { roles: [EDITOR] } })],
      actors: { [ALICE]: { roles: [EDITOR] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY_TAGS'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ actorUrn: BOB, privileges: ['EDIT_ENTITY_TAGS'], resourceUrn: ORDERS })).toBe(
      false,
    );
  });

  it('compares privileges exactly and needs only one of the requested ones', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY'], actors: { allUsers: true } })],
    });
    expect(await allowed({ privileges: ['edit_entity'] })).toBe(false);
    expect(await allowed({ privileges: ['DELETE_ENTITY', 'EDIT_ENTITY'] })).toBe(true);
    expect(await allowed({ privileges: [] })).toBe(false);
  });

  it.each(['INACTIVE', 'DRAFT'])('never grants through a %s policy', async (state) => {
    const { allowed, engine } = engineWith({
      policies: [
        policy('p', { state, privileges: ['EDIT_ENTITY', 'MANAGE_POLICIES'], actors: { allUsers: true } }),
        policy('q', { state, type: 'PLATFORM', privileges: ['MANAGE_POLICIES'], actors: { allUsers: true } }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(false);
    expect(await allowed({ privileges: ['MANAGE_POLICIES'] })).toBe(false);
    expect([...(await engine.platformPrivileges(ALICE))]).toEqual([]);
  });

  it('allows the system actor everything without any policy', async () => {
    const { allowed } = engineWith({ policies: [] });
    expect(await allowed({ actorUrn: SYSTEM_ACTOR_URN, privileges: ['MANAGE_POLICIES'] })).toBe(true);
    expect(
      await allowed({ actorUrn: SYSTEM_ACTOR_URN, privileges: ['DELETE_ENTITY'], resourceUrn: ORDERS }),
    ).toBe(true);
  });

  it('treats a configured system client as the system actor instead of the default one', async () => {
    const engine = new PolicyEngine({
      policies: new FakePolicySource([]),
      actors: new FakeActorDirectory(),
      resources: new FakeResourceResolver(),
      refreshIntervalMs: 60_000,
      systemActorUrn: 'urn:li:corpuser:ops_client',
    });
    expect(
      await engine.isAllowed({ actorUrn: 'urn:li:corpuser:ops_client', privileges: ['MANAGE_POLICIES'] }),
    ).toBe(true);
    expect(await engine.isAllowed({ actorUrn: SYSTEM_ACTOR_URN, privileges: ['MANAGE_POLICIES'] })).toBe(
      false,
    );
  });

  it('grants every actor the ENTITY READ privileges on its own entity only (View Self)', async () => {
    const { allowed } = engineWith({ policies: [] });
    expect(await allowed({ privileges: ['VIEW_ENTITY_PAGE'], resourceUrn: ALICE })).toBe(true);
    expect(await allowed({ privileges: ['GET_ENTITY_PRIVILEGE'], resourceUrn: ALICE })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ALICE })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_USER_PROFILE'], resourceUrn: ALICE })).toBe(false);
    expect(await allowed({ privileges: ['VIEW_ENTITY_PAGE'], resourceUrn: BOB })).toBe(false);
  });
});

describe('PolicyEngine resource matching', () => {
  it('ignores the resources of a PLATFORM policy', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          type: 'PLATFORM',
          privileges: ['MANAGE_INGESTION'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'] }] } },
        }),
      ],
    });
    expect(await allowed({ privileges: ['MANAGE_INGESTION'] })).toBe(true);
    expect(await allowed({ privileges: ['MANAGE_INGESTION'], resourceUrn: CHART })).toBe(true);
  });

  it('matches a METADATA policy without resources to any resource, and to none', async () => {
    const { allowed } = engineWith({
      policies: [policy('p', { privileges: ['EDIT_ENTITY'], actors: { allUsers: true } })],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: CHART })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'] })).toBe(true);
  });

  it('never matches a filtered METADATA policy to a request without a resource', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'URN', values: [ORDERS], condition: 'NOT_EQUALS' }] } },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'] })).toBe(false);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: USERS_TABLE })).toBe(true);
  });

  it('matches a TYPE filter on the entity type, whatever case the field is spelled in', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'resource_type', values: ['dataset', 'dashboard'] }] } },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: CHART })).toBe(false);
  });

  it('matches a type-only request against TYPE criteria and nothing else', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('types', {
          privileges: ['VIEW_ENTITY_PAGE'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'] }] } },
        }),
        policy('urns', {
          privileges: ['GET_ENTITY_PRIVILEGE'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'URN', values: [ORDERS] }] } },
        }),
      ],
    });
    expect(await allowed({ privileges: ['VIEW_ENTITY_PAGE'], resourceType: 'dataset' })).toBe(true);
    expect(await allowed({ privileges: ['VIEW_ENTITY_PAGE'], resourceType: 'chart' })).toBe(false);
    expect(await allowed({ privileges: ['GET_ENTITY_PRIVILEGE'], resourceType: 'dataset' })).toBe(false);
  });

  it('matches a URN filter on the listed urns only', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'URN', values: [ORDERS], condition: 'EQUALS' }] } },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: USERS_TABLE })).toBe(false);
  });

  it('matches STARTS_WITH on a prefix of the field value', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: {
            filter: {
              criteria: [
                {
                  field: 'URN',
                  values: ['urn:li:dataset:(urn:li:dataPlatform:hive'],
                  condition: 'STARTS_WITH',
                },
              ],
            },
          },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(
      await allowed({
        privileges: ['EDIT_ENTITY'],
        resourceUrn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,t,PROD)',
      }),
    ).toBe(false);
  });

  it('matches NOT_EQUALS when none of the values is present', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: {
            filter: { criteria: [{ field: 'TAG', values: ['urn:li:tag:pii'], condition: 'NOT_EQUALS' }] },
          },
        }),
      ],
      resources: {
        [USERS_TABLE]: { tags: ['urn:li:tag:pii', 'urn:li:tag:gold'] },
        [ORDERS]: { tags: ['urn:li:tag:gold'] },
      },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: USERS_TABLE })).toBe(false);
  });

  it('requires every criterion of a filter to hold', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: {
            filter: {
              criteria: [
                { field: 'TYPE', values: ['dataset'] },
                { field: 'DOMAIN', values: ['urn:li:domain:finance'] },
              ],
            },
          },
        }),
      ],
      resources: { [ORDERS]: { domains: ['urn:li:domain:sales', 'urn:li:domain:finance'] } },
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: USERS_TABLE })).toBe(false);
  });

  it('matches DOMAIN criteria on the domains a write proposes when the request gives them', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['CREATE_ENTITY'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'DOMAIN', values: ['urn:li:domain:finance'] }] } },
        }),
      ],
      resources: { [ORDERS]: { domains: ['urn:li:domain:sales'] } },
    });
    const ask = (proposedDomains?: readonly string[]) =>
      allowed({
        privileges: ['CREATE_ENTITY'],
        resourceUrn: ORDERS,
        ...(proposedDomains === undefined ? {} : { proposedDomains }),
      });
    expect(await ask()).toBe(false);
    expect(await ask(['urn:li:domain:finance'])).toBe(true);
    expect(await ask(['urn:li:domain:sales'])).toBe(false);
    expect(await ask([])).toBe(false);
  });

  it('reads the legacy form as a type plus a urn list, unless allResources', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('listed', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: { type: 'dataset', resources: [ORDERS], allResources: false },
        }),
        policy('all-datasets', {
          privileges: ['DELETE_ENTITY'],
          actors: { allUsers: true },
          resources: { type: 'dataset', resources: [ORDERS], allResources: true },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: USERS_TABLE })).toBe(false);
    expect(await allowed({ privileges: ['DELETE_ENTITY'], resourceUrn: USERS_TABLE })).toBe(true);
    expect(await allowed({ privileges: ['DELETE_ENTITY'], resourceUrn: CHART })).toBe(false);
  });

  it('never matches a criterion on an unknown field, whatever its condition', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: {
            filter: { criteria: [{ field: 'COLOR', values: ['blue'], condition: 'NOT_EQUALS' }] },
          },
        }),
      ],
    });
    expect(await allowed({ privileges: ['EDIT_ENTITY'], resourceUrn: ORDERS })).toBe(false);
  });

  it('matches GROUP_MEMBERSHIP on the groups of a user resource', async () => {
    const { allowed } = engineWith({
      policies: [
        policy('p', {
          privileges: ['EDIT_USER_PROFILE'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'GROUP_MEMBERSHIP', values: [ENGINEERS] }] } },
        }),
      ],
      actors: { [BOB]: { groups: [ENGINEERS] } },
    });
    expect(await allowed({ privileges: ['EDIT_USER_PROFILE'], resourceUrn: BOB })).toBe(true);
    expect(await allowed({ privileges: ['EDIT_USER_PROFILE'], resourceUrn: 'urn:li:corpuser:carol' })).toBe(
      false,
    );
    expect(await allowed({ privileges: ['EDIT_USER_PROFILE'], resourceUrn: ORDERS })).toBe(false);
  });
});

describe('PolicyEngine.platformPrivileges', () => {
  it('unions the privileges of the matching policies that need no resource', async () => {
    const { engine } = engineWith({
      policies: [
        policy('everyone', { type: 'PLATFORM', privileges: ['VIEW_ANALYTICS'], actors: { allUsers: true } }),
        policy('editors', {
          type: 'PLATFORM',
          privileges: ['MANAGE_TAGS', 'MANAGE_DOMAINS'],
          actors: { roles: [EDITOR] },
        }),
        policy('bob', { type: 'PLATFORM', privileges: ['MANAGE_POLICIES'], actors: { users: [BOB] } }),
        policy('off', {
          type: 'PLATFORM',
          state: 'INACTIVE',
          privileges: ['MANAGE_SECRETS'],
          actors: { allUsers: true },
        }),
        policy('scoped', {
          privileges: ['EDIT_ENTITY'],
          actors: { allUsers: true },
          resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'] }] } },
        }),
      ],
      actors: { [ALICE]: { roles: [EDITOR] } },
    });
    expect([...(await engine.platformPrivileges(ALICE))].sort()).toEqual([
      'MANAGE_DOMAINS',
      'MANAGE_TAGS',
      'VIEW_ANALYTICS',
    ]);
    expect([...(await engine.platformPrivileges(BOB))].sort()).toEqual(['MANAGE_POLICIES', 'VIEW_ANALYTICS']);
  });

  it('gives the system actor every platform privilege', async () => {
    const { engine } = engineWith({ policies: [] });
    expect(await engine.platformPrivileges(SYSTEM_ACTOR_URN)).toContain('MANAGE_POLICIES');
  });
});
