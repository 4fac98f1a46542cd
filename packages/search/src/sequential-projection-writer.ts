import type { GraphIndex, ProjectionWriter, ProjectionWrites, SearchIndex } from './port.js';

/**
 * The ProjectionWriter of engines without a combined write (the embedded indices): the edge sets
 * (replaceEdgesMany when the graph has it), then the upserts, then the deletes, each through its index.
 */
export function sequentialProjectionWriter(search: SearchIndex, graph: GraphIndex): ProjectionWriter {
  return {
    async write({ edges, upserts, deletes }: ProjectionWrites): Promise<void> {
      if (graph.replaceEdgesMany) await graph.replaceEdgesMany(edges);
      else for (const set of edges) await graph.replaceEdges(set.source, set.aspect, set.edges);
      if (upserts.length > 0) await search.upsert(upserts);
      if (deletes.length > 0) await search.delete(deletes);
    },
  };
}
