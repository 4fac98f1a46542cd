import { describe, expect, it } from 'vitest';
import { requireUrnOf } from './entity-urns.js';
import { membershipPatch, roleMembershipOf, userStatusOf } from './users.js';

describe('membershipPatch', () => {
  it('adds a group to a user’s native groups, keyed by the group urn', () => {
    expect(
      membershipPatch('urn:li:corpuser:a', 'nativeGroupMembership', 'urn:li:corpGroup:x/y', true),
    ).toEqual({
      urn: 'urn:li:corpuser:a',
      entityType: 'corpuser',
      aspect: 'nativeGroupMembership',
      changeType: 'PATCH',
      value: {
        patch: [{ op: 'add', path: '/nativeGroups/urn:li:corpGroup:x~1y', value: 'urn:li:corpGroup:x/y' }],
        arrayPrimaryKeys: { nativeGroups: [] },
      },
    });
  });

  it('removes a group from an ingested membership', () => {
    expect(
      membershipPatch('urn:li:corpuser:a', 'groupMembership', 'urn:li:corpGroup:x', false).value,
    ).toEqual({
      patch: [{ op: 'remove', path: '/groups/urn:li:corpGroup:x' }],
      arrayPrimaryKeys: { groups: [] },
    });
  });
});

describe('aspect values', () => {
  it('assigns one role, or none for a null role', () => {
    expect(roleMembershipOf('urn:li:dataHubRole:Admin')).toEqual({ roles: ['urn:li:dataHubRole:Admin'] });
    expect(roleMembershipOf(null)).toEqual({ roles: [] });
  });

  it('stamps a status change with who made it and when', () => {
    expect(userStatusOf('SUSPENDED', 'urn:li:corpuser:admin', 3)).toEqual({
      status: 'SUSPENDED',
      lastModified: { time: 3, actor: 'urn:li:corpuser:admin' },
    });
  });
});

describe('requireUrnOf', () => {
  it('accepts urns of the given entity types and refuses others', () => {
    expect(requireUrnOf('urn:li:corpGroup:g', ['corpuser', 'corpGroup'], 'actors[0]')).toEqual({
      urn: 'urn:li:corpGroup:g',
      entity: 'corpGroup',
    });
    expect(() => requireUrnOf('urn:li:dataset:x', ['corpuser'], 'urn')).toThrow('urn must be a corpuser urn');
    expect(() => requireUrnOf('alice', ['corpuser'], 'urn')).toThrow('urn must be a corpuser urn');
  });
});
