import { describe, expect, it } from 'vitest';
import { FacetCache, weightOf } from './facet-cache.js';

const page = (groups: number) => ({
  groups: Array.from({ length: groups }, (_, i) => ({ name: `g${i}`, count: i })),
  entities: [],
  totalEntities: 0,
  totalNumEntities: groups,
});

describe('facet cache', () => {
  it('weighs a value by its rows: array elements, map entries, an object’s array members', () => {
    expect(weightOf([1, 2, 3])).toBe(3);
    expect(weightOf(new Map([['a', 1]]))).toBe(1);
    expect(weightOf(page(40))).toBe(41);
    expect(weightOf([])).toBe(1);
    expect(weightOf(7)).toBe(1);
  });

  it('keeps the rows it holds under its bound, dropping the least recently used first', () => {
    const cache = new FacetCache(() => 0, 100);
    let computed = 0;
    const get = (key: string, rows: number) =>
      cache.get('dataset', key, () => {
        computed++;
        return page(rows);
      });
    get('a', 39);
    get('b', 39);
    get('a', 39); // a hit: now the most recently used
    expect(computed).toBe(2);
    get('c', 39); // 120 rows would pass 100: b, the least recently used, goes
    expect(cache.heldWeight).toBe(80);
    get('a', 39);
    expect(computed).toBe(3);
    get('b', 39);
    expect(computed).toBe(4);
    expect(cache.heldWeight).toBeLessThanOrEqual(100);
  });

  it('returns a result heavier than its bound without keeping it', () => {
    const cache = new FacetCache(() => 0, 100);
    let computed = 0;
    const heavy = () => cache.get('dataset', 'huge', () => (computed++, page(500)));
    expect(heavy().groups).toHaveLength(500);
    heavy();
    expect(computed).toBe(2);
    expect(cache.heldWeight).toBe(0);
  });

  it('recomputes after a write to the entity type or another connection’s commit', () => {
    let version = 0;
    const cache = new FacetCache(() => version, 100);
    let computed = 0;
    const get = () => cache.get('dataset', 'k', () => (computed++, [computed]));
    get();
    get();
    expect(computed).toBe(1);
    cache.invalidate('dataset');
    get();
    expect(computed).toBe(2);
    version = 1;
    expect(get()).toEqual([3]);
    expect(cache.heldWeight).toBe(1);
  });
});
