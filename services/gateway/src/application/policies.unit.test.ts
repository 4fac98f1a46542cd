import { normalizeFilter, parseSearchInput } from '@catalog/search';
import { describe, expect, it } from 'vitest';
import { byLastUpdatedDescending, policyMatches } from './policies.js';
import { policyInfoOf, type PolicyUpdateInput } from './policy-info.js';

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

describe('listing policies', () => {
  const urn = 'urn:li:dataHubPolicy:1';
  const info = policyInfoOf(INPUT, { now: 7, editable: true });

  it('matches the query against name and description, and filters on the policy index fields', () => {
    const all = { or: [] };
    expect(policyMatches(urn, info, parseSearchInput('*'), all)).toBe(true);
    expect(policyMatches(urn, info, parseSearchInput('tag edit'), all)).toBe(true);
    expect(policyMatches(urn, info, parseSearchInput('datasets'), all)).toBe(true);
    expect(policyMatches(urn, info, parseSearchInput('ingestion'), all)).toBe(false);
    const state = (s: string) => normalizeFilter({ or: [{ and: [{ field: 'state', values: [s] }] }] });
    expect(policyMatches(urn, info, parseSearchInput('*'), state('ACTIVE'))).toBe(true);
    expect(policyMatches(urn, info, parseSearchInput('*'), state('INACTIVE'))).toBe(false);
  });

  it('orders by last update, newest first, policies without one last', () => {
    const p = (u: string, t?: number) => ({
      urn: u,
      info: t === undefined ? {} : { lastUpdatedTimestamp: t },
    });
    expect([p('a', 1), p('b'), p('c', 5), p('d', 1)].sort(byLastUpdatedDescending).map((x) => x.urn)).toEqual(
      ['c', 'a', 'd', 'b'],
    );
  });
});
