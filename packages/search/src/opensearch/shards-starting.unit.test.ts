import { describe, expect, it } from 'vitest';
import { noShardStarted } from './shards-starting.js';

/** A client error as @opensearch-project/opensearch throws it (ResponseError: meta with status and body). */
const responseError = (statusCode: number, error: Record<string, unknown>) =>
  Object.assign(new Error(String(error['type'])), {
    meta: { statusCode, body: { error, status: statusCode } },
  });

describe('noShardStarted', () => {
  it('recognises a new index whose primary has not started: all shards failed, none failing', () => {
    const error = responseError(503, {
      root_cause: [],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      grouped: true,
      failed_shards: [],
    });
    expect(noShardStarted(error)).toBe(true);
  });

  it('leaves other failures alone: shards that failed, other statuses, other errors', () => {
    const failing = responseError(503, {
      type: 'search_phase_execution_exception',
      failed_shards: [{ shard: 0, reason: { type: 'query_shard_exception' } }],
    });
    expect(noShardStarted(failing)).toBe(false);
    expect(noShardStarted(responseError(400, { type: 'search_phase_execution_exception' }))).toBe(false);
    expect(noShardStarted(responseError(503, { type: 'cluster_block_exception' }))).toBe(false);
    expect(noShardStarted(new Error('connect ECONNREFUSED'))).toBe(false);
    expect(noShardStarted(undefined)).toBe(false);
  });
});
