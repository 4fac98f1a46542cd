import { ValidationError } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { INITIAL_SORT_ID, nextSortId } from './entity-versioning.js';

describe('the sort ids links give versions', () => {
  it('counts eight capital letters like a base-26 number, carrying and wrapping as the ecosystem does', () => {
    expect(nextSortId(INITIAL_SORT_ID)).toBe('AAAAAAAB');
    expect(nextSortId('AAAAAAAZ')).toBe('AAAAAABA');
    expect(nextSortId('AZZZZZZZ')).toBe('BAAAAAAA');
    expect(nextSortId('ZZZZZZZZ')).toBe(INITIAL_SORT_ID);
  });

  it.each(['aaa', 'AAAAAAA', 'AAAAAAAAA', 'AAAA1AAA', ''])('refuses %j, a sort id no link gave', (id) => {
    expect(() => nextSortId(id)).toThrow(ValidationError);
  });
});
