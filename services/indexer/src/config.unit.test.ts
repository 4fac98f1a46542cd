import { ConfigError } from '@catalog/runtime';
import { describe, expect, it } from 'vitest';
import { readIndexerConfig } from './config.js';

describe('indexer config', () => {
  it('waits up to 100 ms for fuller batches and runs at nice 10 by default, as the all-in-one catalog does', () => {
    expect(readIndexerConfig({})).toMatchObject({ maxBatchSize: 2000, batchWaitMs: 100, nice: 10 });
  });

  it('reads INDEXER_BATCH_WAIT_MS and INDEXER_NICE, and refuses values out of range, naming them', () => {
    expect(readIndexerConfig({ INDEXER_BATCH_WAIT_MS: '0', INDEXER_NICE: '19' })).toMatchObject({
      batchWaitMs: 0,
      nice: 19,
    });
    let problems: readonly string[] = [];
    try {
      readIndexerConfig({ INDEXER_BATCH_WAIT_MS: 'soon', INDEXER_NICE: '-5' });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    expect(problems).toEqual([
      expect.stringContaining('INDEXER_BATCH_WAIT_MS'),
      expect.stringContaining('INDEXER_NICE'),
    ]);
  });
});
