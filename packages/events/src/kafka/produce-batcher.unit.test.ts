import { describe, expect, it } from 'vitest';
import { ProduceBatcher } from './produce-batcher.js';

interface Rec {
  readonly id: number;
  readonly size: number;
}

function recording(fail?: (batch: readonly Rec[]) => boolean) {
  const sends: number[][] = [];
  let next = 0;
  const send = async (records: readonly Rec[]): Promise<string[]> => {
    sends.push(records.map((r) => r.id));
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (fail?.(records)) throw new Error('broker said no');
    return records.map(() => String(next++));
  };
  return { sends, send };
}

const recs = (ids: number[], size = 10): Rec[] => ids.map((id) => ({ id, size }));

describe('ProduceBatcher', () => {
  it('coalesces calls made in the same tick into one send, resolving each with its own offsets', async () => {
    const { sends, send } = recording();
    const batcher = new ProduceBatcher(send, { maxBatchBytes: 1_000_000, maxBatchRecords: 1000 });
    const results = await Promise.all([
      batcher.enqueue(recs([1, 2])),
      batcher.enqueue(recs([3])),
      batcher.enqueue(recs([4, 5, 6])),
    ]);
    expect(sends).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(results).toEqual([['0', '1'], ['2'], ['3', '4', '5']]);
  });

  it('sends one batch at a time, in call order; calls made meanwhile leave together next', async () => {
    const { sends, send } = recording();
    const batcher = new ProduceBatcher(send, { maxBatchBytes: 1_000_000, maxBatchRecords: 1000 });
    const first = batcher.enqueue(recs([1]));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batcher.enqueue(recs([2])), batcher.enqueue(recs([3]))];
    await Promise.all([first, ...later]);
    expect(sends).toEqual([[1], [2, 3]]);
  });

  it('splits by bytes and record count, even inside one call, and resolves the call once all parts are in', async () => {
    const { sends, send } = recording();
    const batcher = new ProduceBatcher(send, { maxBatchBytes: 25, maxBatchRecords: 3 });
    const offsets = await batcher.enqueue(recs([1, 2, 3, 4, 5]));
    expect(sends).toEqual([[1, 2], [3, 4], [5]]);
    expect(offsets).toEqual(['0', '1', '2', '3', '4']);
    const { sends: bigSends, send: bigSend } = recording();
    const counted = new ProduceBatcher(bigSend, { maxBatchBytes: 1_000_000, maxBatchRecords: 3 });
    await counted.enqueue(recs([1, 2, 3, 4]));
    expect(bigSends).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects the calls of a failed send, drops the rest of a partly sent call, and carries on', async () => {
    const { sends, send } = recording((batch) => batch.some((r) => r.id === 2));
    const batcher = new ProduceBatcher(send, { maxBatchBytes: 20, maxBatchRecords: 100 });
    const failing = batcher.enqueue(recs([1, 2, 3, 4]));
    const after = batcher.enqueue(recs([9]));
    await expect(failing).rejects.toThrow('broker said no');
    await expect(after).resolves.toEqual(['0']);
    expect(sends).toEqual([[1, 2], [9]]);
    await batcher.drained();
  });
});
