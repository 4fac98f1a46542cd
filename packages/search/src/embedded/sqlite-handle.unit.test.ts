import { describe, expect, it } from 'vitest';
import { SqliteHandle } from './sqlite-handle.js';

describe('the embedded search connection', () => {
  it('bounds its page cache as told and spills large sorts to a temporary file', () => {
    const handle = new SqliteHandle({ file: ':memory:', cacheKiB: 4096 });
    try {
      expect(handle.db.pragma('cache_size', { simple: true })).toBe(-4096);
      expect(handle.db.pragma('temp_store', { simple: true })).toBe(1); // FILE
    } finally {
      handle.close();
    }
    const byDefault = new SqliteHandle({ file: ':memory:' });
    expect(byDefault.db.pragma('cache_size', { simple: true })).toBe(-131072);
    byDefault.close();
    expect(() => new SqliteHandle({ file: ':memory:', cacheKiB: 0 })).toThrow(/cacheKiB/);
  });
});
