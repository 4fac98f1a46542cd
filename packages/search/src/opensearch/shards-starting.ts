import type { Client } from '@opensearch-project/opensearch';

/** How long a search waits for a new index's primary shard to start before it gives up (503). */
const START_WAIT = '10s';

/**
 * Whether OpenSearch refused a search because no shard of the index had started: "all shards failed"
 * with no shard failing, which is what an index created a moment ago answers until its primary starts
 * (seconds on a busy node: shard starts queue behind other cluster-state changes). Its alias exists
 * from the start, so a reader can meet the index in that state.
 */
export function noShardStarted(error: unknown): boolean {
  const meta = (error as { meta?: { statusCode?: unknown; body?: unknown } } | null)?.meta;
  if (meta?.statusCode !== 503) return false;
  const body = meta.body as { error?: { type?: unknown; failed_shards?: unknown } } | undefined;
  const failed = body?.error?.failed_shards;
  return (
    body?.error?.type === 'search_phase_execution_exception' &&
    (!Array.isArray(failed) || failed.length === 0)
  );
}

/**
 * Runs a search of `index`; when the index has no started shard yet (noShardStarted), waits for its
 * primary (cluster health yellow, up to START_WAIT) and runs it once more. What fails then is thrown.
 */
export async function searchOnceStarted<T>(
  client: Client,
  index: string,
  search: () => Promise<T>,
): Promise<T> {
  try {
    return await search();
  } catch (error) {
    if (!noShardStarted(error)) throw error;
    await client.cluster.health(
      { index, wait_for_status: 'yellow', timeout: START_WAIT },
      { ignore: [404, 408] },
    );
    return search();
  }
}
