import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestCatalog, type TestCatalog } from './harness.js';

interface ThreadMemory {
  thread: string;
  heapUsed: number;
  heapTotal: number;
  heapLimit: number;
  external: number;
  youngGenerationLimit?: number;
}

async function reportedThreads(base: string): Promise<ThreadMemory[] | undefined> {
  const res = await get(base, '/openapi/operations/messaging/mcp/consumer/lag');
  expect(res.status).toBe(200);
  return (res.body as { memory: { threads?: ThreadMemory[] } }).memory.threads;
}

describe('the all-in-one catalog reports the memory of each of its threads', () => {
  let catalog: TestCatalog;
  let inline: TestCatalog;
  let roomy: TestCatalog;
  beforeAll(async () => {
    catalog = await startTestCatalog();
    inline = await startTestCatalog({ CATALOG_CONSUMER_THREADS: 'false' });
    roomy = await startTestCatalog({ CATALOG_THREAD_YOUNG_GENERATION_MB: '24' });
  }, 60_000);
  afterAll(async () => {
    await catalog?.dispose();
    await inline?.dispose();
    await roomy?.dispose();
  });

  it('lists the main thread and the persistence, indexer and audit threads, each with its own heap', async () => {
    const threads = await reportedThreads(catalog.baseUrl);
    expect(threads?.map((t) => t.thread)).toEqual(['main', 'persistence', 'indexer', 'audit']);
    for (const t of threads ?? []) {
      expect(t.heapUsed, t.thread).toBeGreaterThan(0);
      expect(t.heapTotal, t.thread).toBeGreaterThanOrEqual(t.heapUsed);
      expect(t.heapLimit, t.thread).toBeGreaterThanOrEqual(t.heapTotal);
    }
    // Four isolates: their heaps are distinct, not the main thread's figures repeated.
    expect(new Set(threads?.map((t) => t.heapUsed)).size).toBeGreaterThan(1);
  });

  it("bounds each consumer thread's young generation, by CATALOG_THREAD_YOUNG_GENERATION_MB", async () => {
    const limits = async (base: string) =>
      Object.fromEntries((await reportedThreads(base))!.map((t) => [t.thread, t.youngGenerationLimit]));
    const MIB = 1024 * 1024;
    expect(await limits(catalog.baseUrl)).toEqual({
      main: undefined,
      persistence: 6 * MIB,
      indexer: 6 * MIB,
      audit: 6 * MIB,
    });
    expect(await limits(roomy.baseUrl)).toEqual({
      main: undefined,
      persistence: 24 * MIB,
      indexer: 24 * MIB,
      audit: 24 * MIB,
    });
  });

  it('lists only the main thread when the consumers run on it', async () => {
    expect((await reportedThreads(inline.baseUrl))?.map((t) => t.thread)).toEqual(['main']);
  });
});
