import { describe, expect, it } from 'vitest';
import { grown, resized } from './grown-array.js';

describe('grown', () => {
  it('returns the same array while the index fits', () => {
    const array = new Int32Array(2048);
    expect(grown(array, 2047)).toBe(array);
  });

  it('grows past the index by a quarter, keeping the values, in the same typed array class', () => {
    const array = new Float64Array(1024).fill(0.5);
    const next = grown(array, 1_000_000);
    expect(next).toBeInstanceOf(Float64Array);
    expect(next.length).toBe(Math.ceil(1_000_001 * 1.25));
    expect(next[1023]).toBe(0.5);
    expect(next[1024]).toBe(0);
  });

  it('makes room for at least 1,024 elements', () => {
    expect(grown(new Uint8Array(0), 0).length).toBe(1024);
  });

  it('appending one id after another copies each element a bounded number of times', () => {
    let array = new Int32Array(0);
    let copied = 0;
    for (let id = 0; id < 1_000_000; id++) {
      const next = grown(array, id);
      if (next !== array) copied += array.length;
      array = next;
    }
    expect(array.length).toBeLessThan(1_250_002);
    expect(copied).toBeLessThan(5 * 1_000_000);
  });
});

describe('resized', () => {
  it('copies to exactly the size asked when smaller, and leaves a large enough array alone', () => {
    const array = new Uint16Array([1, 2, 3]);
    const next = resized(array, 10);
    expect(Array.from(next)).toEqual([1, 2, 3, 0, 0, 0, 0, 0, 0, 0]);
    expect(resized(next, 5)).toBe(next);
  });
});
