import { describe, expect, it } from 'vitest';
import { processMemory } from './process-memory.js';

describe('processMemory', () => {
  it("gives the process's resident set and the thread's heap as positive byte counts", async () => {
    const memory = await processMemory();
    for (const field of ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers'] as const) {
      expect(Number.isSafeInteger(memory[field]) && memory[field] > 0, field).toBe(true);
    }
    expect(memory.rss).toBeGreaterThan(memory.heapUsed);
  });

  it('splits the resident set into anonymous, file-backed and shared pages on Linux', async () => {
    const memory = await processMemory();
    if (process.platform !== 'linux') return;
    expect(memory.rssAnon).toBeGreaterThan(0);
    expect(memory.rssFile).toBeGreaterThan(0);
    expect(memory.rssShmem).toBeGreaterThanOrEqual(0);
    // Read a moment apart from rss, so they agree only roughly.
    const split = memory.rssAnon! + memory.rssFile! + memory.rssShmem!;
    expect(Math.abs(split - memory.rss) / memory.rss).toBeLessThan(0.2);
  });
});

describe('processMemory with the other threads of the process', () => {
  it('lists the calling thread as main, then what the others report', async () => {
    const other = { thread: 'indexer', heapUsed: 1, heapTotal: 2, heapLimit: 3, external: 0 };
    const memory = await processMemory(async () => [other]);
    expect(memory.threads?.map((t) => t.thread)).toEqual(['main', 'indexer']);
    expect(memory.threads?.[1]).toEqual(other);
    const main = memory.threads![0]!;
    expect(main.heapUsed).toBeGreaterThan(0);
    expect(main.heapLimit).toBeGreaterThanOrEqual(main.heapTotal);
  });

  it('leaves threads out when the process does not report them', async () => {
    expect((await processMemory()).threads).toBeUndefined();
  });
});
