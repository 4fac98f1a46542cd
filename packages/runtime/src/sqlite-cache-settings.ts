import type { EnvReader } from './env-reader.js';

const MIB = 1024 * 1024;

/**
 * CATALOG_SQLITE_CACHE_BYTES when unset: 128 MiB. Measured at 100,000 datasets, search latency and write
 * throughput were the same with 512 MiB (the files' pages are read from the operating system's file
 * cache, which is not the process's memory), while the larger caches filled to hold about 380 MiB more.
 */
export const DEFAULT_SQLITE_CACHE_BYTES = 128 * MIB;

/** The embedded SQLite files, by what they hold. */
export type EmbeddedFile = 'search' | 'aspects' | 'eventlog' | 'audit';

/**
 * How the bound is split. A SQLite page cache belongs to a connection, and the all-in-one catalog
 * opens several on a file (one per thread that uses it), so each file's share is divided among the
 * connections that process opens on it; any other process (a service alone, system-update) opens at
 * most as many and stays under the bound. Search is read on every query and written by the indexer,
 * the aspect store is read by key, the log is read near its ends.
 */
const SPLIT: Readonly<Record<EmbeddedFile, { readonly sixteenths: number; readonly connections: number }>> = {
  // The gateway's queries (main thread), the indexer's writes, persistence's property-name reads.
  search: { sixteenths: 10, connections: 3 },
  // The gateway's reads, persistence's writes, the indexer's reads of an entity's aspects.
  aspects: { sixteenths: 3, connections: 3 },
  // Every thread: the gateway produces, each consumer reads and commits.
  eventlog: { sixteenths: 2, connections: 4 },
  // The gateway's audit search, the audit consumer's writes.
  audit: { sixteenths: 1, connections: 2 },
};

/**
 * CATALOG_SQLITE_CACHE_BYTES: the most memory the page caches of one process's embedded SQLite
 * connections may take together (the search index, aspect store, event log and audit index files).
 * Read once at start with the other adapter settings; a bad value is reported by the reader's finish().
 */
export function readSqliteCacheBytes(env: EnvReader): number {
  return env.int('CATALOG_SQLITE_CACHE_BYTES', DEFAULT_SQLITE_CACHE_BYTES, {
    min: 16 * MIB,
    max: 1024 * 1024 * MIB,
  });
}

/**
 * The page cache of one connection to `file`, in KiB, as SQLite's `cache_size` takes it (negated): its
 * share of `totalBytes`, divided among the connections the catalog opens on that file.
 */
export function sqliteCacheKiB(totalBytes: number, file: EmbeddedFile): number {
  const { sixteenths, connections } = SPLIT[file];
  return Math.max(1, Math.floor((totalBytes * sixteenths) / 16 / connections / 1024));
}
