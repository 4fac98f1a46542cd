import { entityRegistry, ValidationError } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { indexSpecFor } from './index-spec-for.js';
import { normalizeFilter } from './normalize-filter.js';
import { parseSearchInput } from './parse-search-input.js';
import type { Condition, EntityIndexSpec, Filter, SearchRequest } from './port.js';
import { validateFilter } from './validate-filter.js';
import { MAX_PAGE_SIZE, validateSearchRequest } from './validate-search-request.js';

const specs = new Map<string, EntityIndexSpec>(
  ['dataset', 'chart', 'corpuser'].map((n) => [n, indexSpecFor(entityRegistry.requireEntity(n))]),
);
const lookup = (t: string) => specs.get(t);
const dataset = specs.get('dataset')!;
const request = (r: Partial<SearchRequest> = {}): SearchRequest => ({
  entityTypes: ['dataset'],
  input: '*',
  start: 0,
  count: 10,
  ...r,
});
const eq = (field: string, values: string[], condition: Condition = 'EQUAL'): Filter => ({
  or: [{ and: [{ field, values, condition }] }],
});
const fails = (fn: () => unknown, message: RegExp) => {
  expect(fn).toThrow(ValidationError);
  expect(fn).toThrow(message);
};

describe('normalizeFilter', () => {
  it('keeps the canonical form and fills defaults', () => {
    expect(normalizeFilter({ or: [{ and: [{ field: 'origin.keyword', value: 'PROD' }] }] })).toEqual({
      or: [{ and: [{ field: 'origin', values: ['PROD'], condition: 'EQUAL' }] }],
    });
    expect(normalizeFilter(undefined)).toEqual({ or: [] });
    expect(normalizeFilter({})).toEqual({ or: [] });
  });

  it('turns the older criteria form into one conjunction', () => {
    expect(
      normalizeFilter({
        criteria: [
          { field: 'platform', value: 'urn:li:dataPlatform:hive', condition: 'EQUAL' },
          { field: 'removed', value: true, negated: true },
        ],
      }),
    ).toEqual({
      or: [
        {
          and: [
            { field: 'platform', values: ['urn:li:dataPlatform:hive'], condition: 'EQUAL' },
            { field: 'removed', values: ['true'], condition: 'EQUAL', negated: true },
          ],
        },
      ],
    });
    expect(normalizeFilter({ criteria: [] })).toEqual({ or: [] });
    expect(
      normalizeFilter({ or: [{ and: [{ field: 'x', value: '', values: [], condition: 'EXISTS' }] }] }).or[0]
        ?.and[0]?.values,
    ).toEqual([]);
  });

  it('rejects malformed filters', () => {
    fails(() => normalizeFilter('x'), /Invalid filter/);
    fails(() => normalizeFilter({ and: [] }), /must have the form/);
    fails(() => normalizeFilter({ or: {} }), /"or" must be an array/);
    fails(() => normalizeFilter({ or: [{ criteria: [] }] }), /or\[0\] must be an object/);
    fails(() => normalizeFilter({ or: [{ and: [{ values: ['x'] }] }] }), /missing its field/);
    fails(
      () => normalizeFilter({ or: [{ and: [{ field: 'a', values: ['x'], condition: 'LIKE' }] }] }),
      /unknown condition/,
    );
    fails(() => normalizeFilter({ or: [{ and: [{ field: 'a', values: 'x' }] }] }), /values must be an array/);
  });
});

describe('validateFilter', () => {
  it('resolves aliases and checks conditions against field types', () => {
    expect(validateFilter(dataset, eq('_entityName', ['orders'])).or[0]?.and[0]?.field).toBe('name');
    expect(validateFilter(dataset, eq('hasDescription', ['TRUE'])).or[0]?.and[0]?.values).toEqual(['true']);
    expect(validateFilter(dataset, eq('createdAt', ['10'], 'GREATER_THAN')).or[0]?.and[0]?.condition).toBe(
      'GREATER_THAN',
    );
    fails(
      () => validateFilter(dataset, eq('nosuch', ['x'])),
      /Unknown filter field "nosuch" for entity type dataset/,
    );
    fails(
      () => validateFilter(dataset, eq('origin', ['1'], 'GREATER_THAN')),
      /GREATER_THAN does not apply to a TEXT_PARTIAL/,
    );
    fails(() => validateFilter(dataset, eq('description', ['1'], 'LESS_THAN')), /does not apply to a TEXT/);
    fails(
      () => validateFilter(dataset, eq('removed', ['t'], 'CONTAIN')),
      /CONTAIN does not apply to a BOOLEAN/,
    );
    fails(() => validateFilter(dataset, eq('createdAt', ['soon'], 'GREATER_THAN')), /"soon" is not a number/);
    fails(() => validateFilter(dataset, eq('removed', ['yes'])), /not true or false/);
    fails(() => validateFilter(dataset, eq('description', ['x'], 'EXISTS')), /EXISTS takes no values/);
    fails(() => validateFilter(dataset, eq('origin', [])), /needs at least one value/);
  });

  it('accepts a field any of several entity types knows, naming them all when none does', () => {
    const both = [dataset, specs.get('chart')!];
    expect(validateFilter(both, eq('origin', ['PROD'])).or).toHaveLength(1);
    fails(() => validateFilter(both, eq('nosuch', ['x'])), /for entity types dataset, chart/);
  });
});

describe('validateSearchRequest', () => {
  it('normalizes the query, facets, sort and removed handling', () => {
    const n = validateSearchRequest(
      lookup,
      request({
        input: 'name.keyword:Orders',
        facets: ['platform.keyword', '_entityType'],
        sort: [{ field: 'createdAt', order: 'DESCENDING' }],
        filter: eq('removed', ['true']),
      }),
    );
    expect(n.query).toEqual({ kind: 'field', field: 'name', value: 'Orders' });
    expect(n.facets).toEqual([
      { name: 'platform', field: 'platform' },
      { name: '_entityType', field: '_entityType' },
    ]);
    expect(n.sort).toEqual([
      { field: 'createdAt', name: 'createdAt', type: 'DATETIME', kind: 'number', order: 'DESCENDING' },
    ]);
    expect(n.includeRemoved).toBe(true);
    expect(n.maxAggValues).toBe(20);
    expect(validateSearchRequest(lookup, request()).filter).toBeUndefined();
    expect(validateSearchRequest(lookup, request()).includeRemoved).toBe(false);
  });

  it('rejects unknown entities, fields, and pages out of bounds', () => {
    fails(
      () => validateSearchRequest(lookup, request({ entityTypes: ['nope'] })),
      /Unknown entity type: nope/,
    );
    fails(() => validateSearchRequest(lookup, request({ entityTypes: [] })), /at least one entity type/);
    fails(
      () => validateSearchRequest(lookup, request({ input: 'nosuch:x' })),
      /Unknown search field "nosuch"/,
    );
    fails(() => validateSearchRequest(lookup, request({ start: -1 })), /start must be/);
    fails(() => validateSearchRequest(lookup, request({ count: -5 })), /count must be/);
    fails(
      () => validateSearchRequest(lookup, request({ count: MAX_PAGE_SIZE + 1 })),
      /above the maximum page size 10000/,
    );
    fails(() => validateSearchRequest(lookup, request({ start: 9_995, count: 10 })), /must not exceed 10000/);
    fails(() => validateSearchRequest(lookup, request({ facets: ['nosuch'] })), /Unknown facet field/);
    fails(() => validateSearchRequest(lookup, request({ maxAggValues: 0 })), /maxAggValues/);
  });
});

describe('parseSearchInput', () => {
  it('tells all, text, field and URN inputs apart', () => {
    expect(parseSearchInput('')).toEqual({ kind: 'all' });
    expect(parseSearchInput(' * ')).toEqual({ kind: 'all' });
    expect(parseSearchInput('!!')).toEqual({ kind: 'all' });
    expect(parseSearchInput('Customer ORDERS_v2')).toEqual({
      kind: 'text',
      terms: ['customer', 'orders', 'v2'],
    });
    expect(parseSearchInput('origin:PROD')).toEqual({ kind: 'field', field: 'origin', value: 'PROD' });
    expect(parseSearchInput('platform:urn:li:dataPlatform:hive')).toEqual({
      kind: 'field',
      field: 'platform',
      value: 'urn:li:dataPlatform:hive',
    });
    expect(parseSearchInput('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)')).toEqual({
      kind: 'field',
      field: 'urn',
      value: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)',
    });
    expect(parseSearchInput('name:')).toEqual({ kind: 'text', terms: ['name'] });
  });
});
