import { describe, expect, it } from 'vitest';
import { DEFAULT_OWNERSHIP_TYPE_URN, withOwnerTypes } from './ownership-owner-types.js';
import { mutateOnWrite } from './write-mutations.js';

describe('withOwnerTypes', () => {
  it('groups owners by type urn, else by their type in lower case, else the default type, each owner once', () => {
    const value = {
      owners: [
        { owner: 'urn:li:corpuser:a', type: 'TECHNICAL_OWNER' },
        { owner: 'urn:li:corpuser:a', type: 'TECHNICAL_OWNER' },
        { owner: 'urn:li:corpGroup:g', type: 'CUSTOM', typeUrn: 'urn:li:ownershipType:x.y' },
        { owner: 'urn:li:corpuser:b' },
      ],
    };
    expect(withOwnerTypes(value)['ownerTypes']).toEqual({
      'urn:li:ownershipType:__system__technical_owner': ['urn:li:corpuser:a'],
      'urn:li:ownershipType:x%2Ey': ['urn:li:corpGroup:g'],
      [DEFAULT_OWNERSHIP_TYPE_URN]: ['urn:li:corpuser:b'],
    });
  });

  it('replaces a map the writer sent, keeps a value without owners, and returns a right value as it is', () => {
    const sent = { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }], ownerTypes: { k: ['v'] } };
    expect(withOwnerTypes(sent)['ownerTypes']).toEqual({
      'urn:li:ownershipType:__system__dataowner': ['urn:li:corpuser:a'],
    });
    const empty = { owners: [], ownerTypes: { k: ['v'] } };
    expect(withOwnerTypes(empty)).toBe(empty);
    const right = withOwnerTypes(sent);
    expect(withOwnerTypes(right)).toBe(right);
  });

  it('is applied to ownership writes only', () => {
    const tags = { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }] };
    expect(mutateOnWrite('globalTags', tags)).toBe(tags);
    expect(mutateOnWrite('ownership', tags)).toHaveProperty('ownerTypes');
  });
});
