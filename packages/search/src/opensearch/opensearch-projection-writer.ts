import type { Client } from '@opensearch-project/opensearch';
import type { ProjectionWriter, ProjectionWrites } from '../port.js';
import { BulkWriteError, runBulk, type RefreshPolicy } from './bulk-writer.js';
import type { OpenSearchGraphIndex } from './opensearch-graph-index.js';
import type { OpenSearchSearchIndex } from './opensearch-search-index.js';

/**
 * A projection batch in one bulk request: the edge replacements (after one multi-get of their manifests),
 * then the documents upserted and deleted. Every bulk request costs the node a translog sync per shard
 * it touches and a round of the indexer's wait, whatever its size, so the indexer sends one per batch of
 * change logs rather than one per index. A document refused for one of its structured property values
 * is indexed again without them, as SearchIndex.upsert does; any other failed item fails the batch.
 */
export class OpenSearchProjectionWriter implements ProjectionWriter {
  constructor(
    private readonly client: Client,
    private readonly refresh: RefreshPolicy,
    private readonly search: OpenSearchSearchIndex,
    private readonly graph: OpenSearchGraphIndex,
  ) {}

  async write({ edges, upserts, deletes }: ProjectionWrites): Promise<void> {
    const operations = [
      ...(await this.graph.replacementOperations(edges)),
      ...(await this.search.upsertOperations(upserts)),
      ...(await this.search.deleteOperations(deletes)),
    ];
    try {
      await runBulk(this.client, operations, this.refresh);
    } catch (error) {
      if (!(error instanceof BulkWriteError)) throw error;
      await this.search.retryWithoutStructuredValues(upserts, error);
    }
  }
}
