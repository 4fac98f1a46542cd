import { describe, expect, it } from 'vitest';
import { withOwnerTypes } from './owner-types.js';

describe('ownerTypes of an ownership aspect', () => {
  it('groups the owners by ownership type: typeUrn, else the system type of `type`, else none', () => {
    const value = {
      owners: [
        { owner: 'urn:li:corpuser:a', type: 'TECHNICAL_OWNER' },
        { owner: 'urn:li:corpuser:b', type: 'TECHNICAL_OWNER' },
        { owner: 'urn:li:corpGroup:c', type: 'CUSTOM', typeUrn: 'urn:li:ownershipType:steward.v2' },
        { owner: 'urn:li:corpuser:d' },
        { owner: 'urn:li:corpuser:a', type: 'TECHNICAL_OWNER' },
      ],
      lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
    };
    expect(withOwnerTypes(value)).toEqual({
      ...value,
      ownerTypes: {
        'urn:li:ownershipType:__system__technical_owner': ['urn:li:corpuser:a', 'urn:li:corpuser:b'],
        'urn:li:ownershipType:steward%2Ev2': ['urn:li:corpGroup:c'],
        'urn:li:ownershipType:__system__none': ['urn:li:corpuser:d'],
      },
    });
  });

  it('replaces ownerTypes a client sent with what the owners say, and leaves a value without owners', () => {
    const stale = { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }], ownerTypes: { x: ['y'] } };
    expect(withOwnerTypes(stale)['ownerTypes']).toEqual({
      'urn:li:ownershipType:__system__dataowner': ['urn:li:corpuser:a'],
    });
    const empty = { owners: [], ownerTypes: { x: ['y'] } };
    expect(withOwnerTypes(empty)).toBe(empty);
  });
});
