import { describe, expect, it } from 'vitest';
import {
  addedSubfields,
  PENDING_SUBFIELDS_META,
  pendingSubfieldsOf,
  withoutPendingSubfields,
} from './added-subfields.js';

const keyword = (fields: Record<string, unknown> = {}) => ({ type: 'keyword', fields });

describe('addedSubfields', () => {
  it('lists the subfields a mapping adds to fields the index already maps, nested ones by their path', () => {
    const existing = {
      urn: keyword({ lowercase: {}, text: {} }),
      owner: { type: 'keyword' },
      nested: { properties: { inner: keyword({ lowercase: {} }) } },
    };
    const wanted = {
      urn: keyword({ lowercase: {}, delimited: {} }),
      owner: keyword({ lowercase: {} }),
      nested: { properties: { inner: keyword({ lowercase: {}, text: {} }) } },
      brandNew: keyword({ text: {} }),
    };
    expect(addedSubfields(wanted, existing)).toEqual([
      'urn.delimited',
      'owner.lowercase',
      'nested.inner.text',
    ]);
  });

  it('lists nothing when every subfield is mapped already', () => {
    const mapping = { urn: keyword({ lowercase: {}, delimited: {} }) };
    expect(addedSubfields(mapping, mapping)).toEqual([]);
  });
});

describe('the pending list in _meta', () => {
  it('reads it and drops it, keeping the rest of _meta', () => {
    const meta = { catalog: { spec: {} }, [PENDING_SUBFIELDS_META]: ['urn.delimited', 3] };
    expect(pendingSubfieldsOf(meta)).toEqual(['urn.delimited']);
    expect(pendingSubfieldsOf(undefined)).toEqual([]);
    expect(withoutPendingSubfields(meta)).toEqual({ catalog: { spec: {} } });
  });
});
