import { describe, expect, it } from 'vitest';
import { sliceOfUrn } from './slice-of-urn.js';
import { compareCodePoints, compareSortValues } from './sort-values.js';

describe('compareCodePoints', () => {
  it('orders by code point (UTF-8 byte order), not by UTF-16 unit', () => {
    const sorted = ['b', 'B', 'a', '\u{1F600}', '\uFF21', 'ab', ''].sort(compareCodePoints);
    expect(sorted).toEqual(['', 'B', 'a', 'ab', 'b', '\uFF21', '\u{1F600}']);
    // UTF-16 order would put U+1F600 (a surrogate pair) before U+FF21; UTF-8 bytes put it after.
    expect(Buffer.compare(Buffer.from('\uFF21'), Buffer.from('\u{1F600}'))).toBe(-1);
  });
});

describe('compareSortValues', () => {
  it('puts missing values last in both orders', () => {
    const values = [3, null, 1, 2];
    expect([...values].sort((a, b) => compareSortValues(a, b, 'ASCENDING'))).toEqual([1, 2, 3, null]);
    expect([...values].sort((a, b) => compareSortValues(a, b, 'DESCENDING'))).toEqual([3, 2, 1, null]);
    expect(compareSortValues(false, true, 'ASCENDING')).toBeLessThan(0);
  });
});

describe('sliceOfUrn', () => {
  it('is pinned (the OpenSearch script computes the same) and spreads urns over the slices', () => {
    expect(['a1', 'a2', 'a3', 'b1', 'b2'].map((u) => sliceOfUrn(u, 2))).toEqual([1, 0, 0, 0, 0]);
    expect(sliceOfUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)', 1024)).toBe(
      sliceOfUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)', 1024),
    );
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++)
      counts[sliceOfUrn(`urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`, 4)]! += 1;
    for (const count of counts) expect(count).toBeGreaterThan(850);
  });
});
