import { describe, expect, it } from 'vitest';
import { parseToolFilter } from './search-filter.js';

describe('the search tools’ SQL-like filter', () => {
  it('maps the tool’s field names to the index’s and entity types to registry names', () => {
    expect(
      parseToolFilter('entity_type = dataset AND platform = snowflake AND tag = urn:li:tag:pii').filter,
    ).toEqual({
      or: [
        {
          and: [
            { field: '_entityType', values: ['dataset'], condition: 'EQUAL', negated: false },
            {
              field: 'platform',
              values: ['urn:li:dataPlatform:snowflake'],
              condition: 'EQUAL',
              negated: false,
            },
            { field: 'tags', values: ['urn:li:tag:pii'], condition: 'EQUAL', negated: false },
          ],
        },
      ],
    });
    expect(parseToolFilter('entity_type IN (dataProduct, corp_user)').filter.or[0]!.and[0]!.values).toEqual([
      'dataProduct',
      'corpuser',
    ]);
  });

  it('multiplies OR inside AND out into alternatives and pushes NOT down to the criteria', () => {
    const { filter } = parseToolFilter('env = PROD AND (platform = a OR NOT (tag = t AND owner IS NULL))');
    expect(
      filter.or.map((c) => c.and.map((x) => `${x.negated ? '!' : ''}${x.field}:${x.condition}`)),
    ).toEqual([
      ['origin:EQUAL', 'platform:EQUAL'],
      ['origin:EQUAL', '!tags:EQUAL'],
      ['origin:EQUAL', 'owners:EXISTS'],
    ]);
  });

  it('reads comparisons, != and quoted values with spaces', () => {
    const { filter } = parseToolFilter(`columnCount >= 5 AND tag != "urn:li:tag:my tag"`);
    expect(filter.or[0]!.and).toEqual([
      { field: 'columnCount', values: ['5'], condition: 'GREATER_THAN_OR_EQUAL_TO', negated: false },
      { field: 'tags', values: ['urn:li:tag:my tag'], condition: 'EQUAL', negated: true },
    ]);
  });

  it('turns status into whether soft-deleted entities are searched', () => {
    expect(parseToolFilter('status = ALL')).toEqual({ filter: { or: [] }, includeRemoved: true });
    expect(parseToolFilter('status = ONLY_SOFT_DELETED').filter.or[0]!.and).toEqual([
      { field: 'removed', values: ['true'], condition: 'EQUAL', negated: false },
    ]);
    expect(parseToolFilter(undefined)).toEqual({ filter: { or: [] }, includeRemoved: false });
  });

  it('refuses what it cannot read, naming where', () => {
    expect(() => parseToolFilter('platform = ')).toThrow(/ends where a value/);
    expect(() => parseToolFilter('(platform = a')).toThrow(/ends where "\)" was expected/);
    expect(() => parseToolFilter('platform ~ a')).toThrow(/Unknown operator "~" after platform/);
    expect(() => parseToolFilter('platform = a ! b')).toThrow(/Cannot read the filter at "! b"/);
    expect(() => parseToolFilter('entity_type = nonsense')).toThrow(/Unknown entity type/);
  });
});
