import { describe, expect, it } from 'vitest';
import { fieldExpressionFilter } from './field-expression-filter.js';

const eq = (field: string, value: string) => ({ field, values: [value], condition: 'EQUAL' });

describe('fieldExpressionFilter', () => {
  it('reads the SDK platform resource queries: quoted values, escapes, OR and AND', () => {
    expect(
      fieldExpressionFilter(
        '(primaryKey:"k1" OR secondaryKeys:"urn\\:li\\:dataset\\:\\(urn\\:li\\:dataPlatform\\:t,k,PROD\\)")',
      ),
    ).toEqual({
      or: [
        { and: [eq('primaryKey', 'k1')] },
        { and: [eq('secondaryKeys', 'urn:li:dataset:(urn:li:dataPlatform:t,k,PROD)')] },
      ],
    });
    expect(
      fieldExpressionFilter('(resourceType:"rt" AND platform.keyword:"urn\\:li\\:dataPlatform\\:s")'),
    ).toEqual({
      or: [{ and: [eq('resourceType', 'rt'), eq('platform', 'urn:li:dataPlatform:s')] }],
    });
  });

  it('negates a term written -field:value', () => {
    expect(
      fieldExpressionFilter('(resourceType:"rt" AND -platform.keyword:"urn\\:li\\:dataPlatform\\:p1")'),
    ).toEqual({
      or: [
        { and: [eq('resourceType', 'rt'), { ...eq('platform', 'urn:li:dataPlatform:p1'), negated: true }] },
      ],
    });
  });

  it('binds AND tighter than OR and expands parentheses', () => {
    expect(fieldExpressionFilter('a:1 OR b:2 AND (c:3 OR d:4)')).toEqual({
      or: [
        { and: [eq('a', '1')] },
        { and: [eq('b', '2'), eq('c', '3')] },
        { and: [eq('b', '2'), eq('d', '4')] },
      ],
    });
  });

  it('leaves free text, a lone bare field:value, prefixes and malformed input to the other query forms', () => {
    for (const input of [
      '',
      '*',
      'orders',
      'customer orders',
      'name:orders',
      'name:ord*',
      '(a:1 OR b:x*)',
      '(a:"x"',
      'a:"x" b:"y"',
      'a:1 OR',
      'urn:li:corpuser:x',
    ])
      expect(fieldExpressionFilter(input), input).toBeUndefined();
  });
});
