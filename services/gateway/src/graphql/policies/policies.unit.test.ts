import { describe, expect, it } from 'vitest';
import { policyInfoOf, type PolicyUpdateInput } from '../../application/policy-info.js';
import { policyView } from './policy-view.js';

const INPUT: PolicyUpdateInput = {
  type: 'METADATA',
  name: ' Tag editors ',
  state: 'ACTIVE',
  description: 'Edit tags on datasets',
  resources: {
    type: 'dataset',
    resources: ['urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)'],
    allResources: false,
    filter: { criteria: [{ field: 'DOMAIN', values: ['urn:li:domain:sales'], condition: 'EQUALS' }] },
  },
  privileges: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY_TAGS', 'VIEW_ENTITY_PAGE'],
  actors: {
    users: ['urn:li:corpuser:alice'],
    groups: ['urn:li:corpGroup:eng'],
    resourceOwners: false,
    allUsers: false,
    allGroups: false,
  },
};

describe('policyInfoOf (PolicyUpdateInput → dataHubPolicyInfo)', () => {
  it('maps the input to the stored aspect', () => {
    expect(policyInfoOf(INPUT, { now: 7, editable: true })).toEqual({
      displayName: 'Tag editors',
      description: 'Edit tags on datasets',
      type: 'METADATA',
      state: 'ACTIVE',
      resources: {
        type: 'dataset',
        resources: ['urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)'],
        allResources: false,
        filter: { criteria: [{ field: 'DOMAIN', values: ['urn:li:domain:sales'], condition: 'EQUALS' }] },
      },
      privileges: ['EDIT_ENTITY_TAGS', 'VIEW_ENTITY_PAGE'],
      actors: {
        users: ['urn:li:corpuser:alice'],
        groups: ['urn:li:corpGroup:eng'],
        resourceOwners: false,
        allUsers: false,
        allGroups: false,
      },
      editable: true,
      lastUpdatedTimestamp: 7,
    });
  });

  it('leaves out absent resources and actor lists, and stores an empty description', () => {
    const info = policyInfoOf(
      {
        type: 'PLATFORM',
        name: 'p',
        state: 'INACTIVE',
        privileges: ['MANAGE_POLICIES'],
        actors: {
          resourceOwners: false,
          allUsers: true,
          allGroups: false,
          roles: ['urn:li:dataHubRole:Admin'],
        },
      },
      { now: 1, editable: false },
    );
    expect(info).toEqual({
      displayName: 'p',
      description: '',
      type: 'PLATFORM',
      state: 'INACTIVE',
      privileges: ['MANAGE_POLICIES'],
      actors: {
        roles: ['urn:li:dataHubRole:Admin'],
        resourceOwners: false,
        allUsers: true,
        allGroups: false,
      },
      editable: false,
      lastUpdatedTimestamp: 1,
    });
  });

  it('keeps unknown privilege names, as the ecosystem does', () => {
    expect(
      policyInfoOf({ ...INPUT, privileges: ['SOMETHING_NEW'] }, { now: 1, editable: true })['privileges'],
    ).toEqual(['SOMETHING_NEW']);
  });

  it('refuses a blank name, blank privileges and actors of the wrong kind', () => {
    const info = (input: Partial<PolicyUpdateInput>) => () =>
      policyInfoOf({ ...INPUT, ...input }, { now: 1, editable: true });
    expect(info({ name: '  ' })).toThrow('The policy name must not be empty');
    expect(info({ privileges: [''] })).toThrow('privileges[0] must not be empty');
    expect(info({ state: 'ENABLED' })).toThrow('state must be one of DRAFT, ACTIVE, INACTIVE');
    expect(info({ actors: { ...INPUT.actors, users: ['alice'] } })).toThrow(
      'actors.users[0] must be a corpuser urn',
    );
    expect(info({ actors: { ...INPUT.actors, groups: ['urn:li:corpuser:alice'] } })).toThrow(
      'actors.groups[0] must be a corpGroup urn',
    );
    expect(
      info({ resources: { filter: { criteria: [{ field: ' ', values: [], condition: 'EQUALS' }] } } }),
    ).toThrow('resources.filter.criteria[0].field must not be empty');
  });
});

describe('policyView (dataHubPolicyInfo → Policy)', () => {
  it('shows a stored policy, with hydrated criterion values and actors', () => {
    const view = policyView('urn:li:dataHubPolicy:1', policyInfoOf(INPUT, { now: 7, editable: true }));
    expect(view).toMatchObject({
      urn: 'urn:li:dataHubPolicy:1',
      type: 'METADATA',
      name: 'Tag editors',
      state: 'ACTIVE',
      editable: true,
      privileges: ['EDIT_ENTITY_TAGS', 'VIEW_ENTITY_PAGE'],
      resources: {
        type: 'dataset',
        allResources: false,
        filter: {
          criteria: [
            {
              field: 'DOMAIN',
              condition: 'EQUALS',
              values: [
                { value: 'urn:li:domain:sales', entity: { urn: 'urn:li:domain:sales', entity: 'domain' } },
              ],
            },
          ],
        },
      },
      actors: {
        users: ['urn:li:corpuser:alice'],
        roles: null,
        resolvedUsers: [{ urn: 'urn:li:corpuser:alice', entity: 'corpuser' }],
        resolvedGroups: [{ urn: 'urn:li:corpGroup:eng', entity: 'corpGroup' }],
        resolvedRoles: null,
      },
    });
  });

  it('reads the aspect defaults: editable unless false, condition EQUALS, flags false', () => {
    const view = policyView('urn:li:dataHubPolicy:7', {
      displayName: 'All Users',
      description: '',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: ['VIEW_ANALYTICS'],
      actors: { allUsers: true },
      resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'] }] } },
    });
    expect(view?.editable).toBe(true);
    expect(view?.actors).toMatchObject({ allUsers: true, allGroups: false, resourceOwners: false });
    expect(view?.resources?.filter?.criteria).toEqual([
      { field: 'TYPE', condition: 'EQUALS', values: [{ value: 'dataset', entity: null }] },
    ]);
    expect(
      policyView('urn:li:dataHubPolicy:0', { type: 'PLATFORM', state: 'ACTIVE', editable: false })?.editable,
    ).toBe(false);
  });

  it('leaves out a policy whose type or state GraphQL cannot show', () => {
    expect(policyView('urn:li:dataHubPolicy:x', { type: 'OTHER', state: 'ACTIVE' })).toBeUndefined();
  });
});
