import { entityRegistry, ValidationError } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { indexSpecFor } from './index-spec-for.js';
import type { EntityIndexSpec, SearchRequest } from './port.js';
import { validateSearchRequest } from './validate-search-request.js';

const specs = new Map<string, EntityIndexSpec>(
  ['dataset', 'chart'].map((n) => [n, indexSpecFor(entityRegistry.requireEntity(n))]),
);
specs.set('left', { entityType: 'left', fields: [{ name: 'size', type: 'COUNT' }] });
specs.set('right', { entityType: 'right', fields: [{ name: 'size', type: 'KEYWORD' }] });
const lookup = (t: string) => specs.get(t);
const request = (r: Partial<SearchRequest> = {}): SearchRequest => ({
  entityTypes: ['dataset'],
  input: '*',
  start: 0,
  count: 10,
  ...r,
});
const validate = (r: Partial<SearchRequest>) => validateSearchRequest(lookup, request(r));
const fails = (r: Partial<SearchRequest>, message: RegExp) => {
  expect(() => validate(r)).toThrow(ValidationError);
  expect(() => validate(r)).toThrow(message);
};
const byTime = [{ field: 'createdAt', order: 'DESCENDING' as const }];

describe('sort', () => {
  it('keeps the requested name for per-entity resolution, with the kind of its values', () => {
    const n = validate({
      entityTypes: ['dataset', 'chart'],
      sort: [
        { field: '_entityName.keyword', order: 'ASCENDING' },
        { field: 'hasDescription', order: 'DESCENDING' },
      ],
    });
    expect(n.sort).toEqual([
      { field: 'name', name: '_entityName', type: 'WORD_GRAM', kind: 'string', order: 'ASCENDING' },
      {
        field: 'hasDescription',
        name: 'hasDescription',
        type: 'BOOLEAN',
        kind: 'boolean',
        order: 'DESCENDING',
      },
    ]);
  });

  it('refuses unknown fields, bad orders, and a field of different kinds across entity types', () => {
    fails({ sort: [{ field: 'nosuch', order: 'ASCENDING' }] }, /Unknown sort field "nosuch"/);
    fails({ sort: [{ field: 'name.ngram', order: 'ASCENDING' }] }, /Unknown sort field "name.ngram"/);
    fails({ sort: [{ field: 'name', order: 'UP' as 'ASCENDING' }] }, /ASCENDING or DESCENDING/);
    fails({ sort: [{ order: 'ASCENDING' } as never] }, /sort\[0\] needs a field/);
    fails({ sort: 'name' as never }, /sort must be a list/);
    fails(
      { entityTypes: ['left', 'right'], sort: [{ field: 'size', order: 'ASCENDING' }] },
      /Sort field "size" cannot be sorted across these entity types: it is COUNT in left but KEYWORD in right/,
    );
    expect(
      validate({ entityTypes: ['left'], sort: [{ field: 'size', order: 'ASCENDING' }] }).sort,
    ).toHaveLength(1);
  });
});

describe('searchAfter', () => {
  it('takes empty for the first page, a urn without a sort, or the sort values of the last hit', () => {
    expect(validate({ searchAfter: '' }).after).toBeNull();
    expect(validate({ searchAfter: '', sort: byTime }).after).toBeNull();
    expect(validate({ searchAfter: 'urn:li:x' }).after).toEqual({ values: [], urn: 'urn:li:x' });
    expect(validate({ searchAfter: ['urn:li:x'] }).after).toEqual({ values: [], urn: 'urn:li:x' });
    expect(validate({ searchAfter: [5, 'urn:li:x'], sort: byTime }).after).toEqual({
      values: [5],
      urn: 'urn:li:x',
    });
    expect(validate({ searchAfter: [null, 'urn:li:x'], sort: byTime }).after).toEqual({
      values: [null],
      urn: 'urn:li:x',
    });
    expect(validate({}).after).toBeUndefined();
  });

  it('refuses positions that do not fit the sort', () => {
    fails({ searchAfter: 'urn:li:x', sort: byTime }, /takes the sortValues of the last hit/);
    fails({ searchAfter: ['urn:li:x'], sort: byTime }, /must have 2 values/);
    fails(
      { searchAfter: ['5', 'urn:li:x'], sort: byTime },
      /searchAfter\[0\] must be a number or null for sort field "createdAt"/,
    );
    fails({ searchAfter: [5, 7], sort: byTime }, /must end with the urn/);
    fails(
      { searchAfter: [1, 'urn:li:x'], sort: [{ field: 'name', order: 'ASCENDING' }] },
      /must be a string or null/,
    );
    fails(
      { searchAfter: ['true', 'urn:li:x'], sort: [{ field: 'removed', order: 'ASCENDING' }] },
      /must be a boolean or null/,
    );
    fails({ searchAfter: 5 as never }, /searchAfter must be/);
    fails({ searchAfter: '', start: 3 }, /searchAfter pages from start 0/);
  });
});

describe('slice', () => {
  it('takes 0 <= id < max <= 1024; max 1 is no slice', () => {
    expect(validate({ slice: { id: 2, max: 3 } }).slice).toEqual({ id: 2, max: 3 });
    expect(validate({ slice: { id: 0, max: 1 } }).slice).toBeUndefined();
    expect(validate({ slice: { id: 1023, max: 1024 } }).slice).toEqual({ id: 1023, max: 1024 });
    fails({ slice: { id: 3, max: 3 } }, /slice.id must be an integer from 0 to 2, got 3/);
    fails({ slice: { id: -1, max: 3 } }, /slice.id must be/);
    fails({ slice: { id: 0.5, max: 3 } }, /slice.id must be/);
    fails({ slice: { id: 0, max: 0 } }, /slice.max must be an integer from 1 to 1024, got 0/);
    fails({ slice: { id: 0, max: 1025 } }, /slice.max must be/);
    fails({ slice: { id: 0 } as never }, /slice.max must be/);
    fails({ slice: 3 as never }, /slice must be \{id, max\}/);
  });
});
