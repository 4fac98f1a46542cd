import type { GraphIndex, SearchIndex, TimeseriesIndex } from '../port.js';
import { SqliteGraphIndex } from './sqlite-graph-index.js';
import { SqliteHandle, type EmbeddedSearchOptions } from './sqlite-handle.js';
import type { WarmOptions } from './search-warmer.js';
import { SqliteSearchIndex } from './sqlite-search-index.js';
import { SqliteTimeseriesIndex } from './sqlite-timeseries-index.js';

export interface EmbeddedSearch {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** Closes the three indices and the file. */
  close(): Promise<void>;
}

/**
 * Opens (creating as needed) the embedded search, graph and time-series indices on one SQLite file in
 * WAL mode. The file closes when `close()` is called, or when all three indices have been closed.
 */
export async function openEmbeddedSearch(
  options: EmbeddedSearchOptions & {
    /**
     * Read the large entity types' query structures now and keep them current (SearchWarmer): set it
     * in the process that serves searches. Opening then takes a few seconds at a million documents.
     */
    readonly warm?: WarmOptions;
  },
): Promise<EmbeddedSearch> {
  const handle = new SqliteHandle(options);
  const search = new SqliteSearchIndex(handle, options.warm === undefined ? {} : { warm: options.warm });
  const graph = new SqliteGraphIndex(handle);
  const timeseries = new SqliteTimeseriesIndex(handle);
  return {
    search,
    graph,
    timeseries,
    async close() {
      await Promise.all([search.close(), graph.close(), timeseries.close()]);
    },
  };
}
