import { describe, expect, it } from 'vitest';
import { readAdapterSettings } from './adapter-settings.js';
import { ConfigError, EnvReader } from './env-reader.js';
import {
  DEFAULT_SQLITE_CACHE_BYTES,
  readSqliteCacheBytes,
  sqliteCacheKiB,
  type EmbeddedFile,
} from './sqlite-cache-settings.js';

const MIB = 1024 * 1024;
/** Connections the all-in-one catalog opens on each file (main thread and the consumer threads). */
const CONNECTIONS: Record<EmbeddedFile, number> = { search: 3, aspects: 3, eventlog: 4, audit: 2 };

function read(env: Record<string, string>): number {
  const reader = new EnvReader(env);
  const bytes = readSqliteCacheBytes(reader);
  reader.finish();
  return bytes;
}

describe('the SQLite page-cache bound (CATALOG_SQLITE_CACHE_BYTES)', () => {
  it('is 128 MiB unless set, and is read with the other adapter settings', () => {
    expect(read({})).toBe(128 * MIB);
    expect(DEFAULT_SQLITE_CACHE_BYTES).toBe(128 * MIB);
    expect(read({ CATALOG_SQLITE_CACHE_BYTES: ' 134217728 ' })).toBe(128 * MIB);
    expect(
      readAdapterSettings(new EnvReader({ CATALOG_SQLITE_CACHE_BYTES: '67108864' })).sqliteCacheBytes,
    ).toBe(64 * MIB);
  });

  it('stops the start naming the variable when it is not a whole number of bytes within bounds', () => {
    for (const bad of ['512MiB', '1.5e9', '-1', '0', String(16 * MIB - 1), String(2 ** 50)]) {
      expect(() => read({ CATALOG_SQLITE_CACHE_BYTES: bad }), bad).toThrow(ConfigError);
      expect(() => read({ CATALOG_SQLITE_CACHE_BYTES: bad }), bad).toThrow(/CATALOG_SQLITE_CACHE_BYTES/);
    }
    expect(read({ CATALOG_SQLITE_CACHE_BYTES: String(16 * MIB) })).toBe(16 * MIB);
  });

  it("splits the bound among the files and the catalog's connections to each, never above it", () => {
    for (const total of [16 * MIB, 512 * MIB, 3 * 1024 * MIB + 7]) {
      const used = (Object.keys(CONNECTIONS) as EmbeddedFile[]).reduce(
        (sum, file) => sum + sqliteCacheKiB(total, file) * 1024 * CONNECTIONS[file],
        0,
      );
      expect(used).toBeLessThanOrEqual(total);
      expect(used).toBeGreaterThan(total * 0.99);
    }
  });

  it('gives by default each search connection 26.7 MiB, each aspect store one 8 MiB, log and audit 4 MiB', () => {
    expect(sqliteCacheKiB(DEFAULT_SQLITE_CACHE_BYTES, 'aspects')).toBe(8192);
    expect(sqliteCacheKiB(DEFAULT_SQLITE_CACHE_BYTES, 'eventlog')).toBe(4096);
    expect(sqliteCacheKiB(DEFAULT_SQLITE_CACHE_BYTES, 'audit')).toBe(4096);
    expect(sqliteCacheKiB(DEFAULT_SQLITE_CACHE_BYTES, 'search')).toBe(27306);
  });
});
