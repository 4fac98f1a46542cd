import { readFile } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import { isMainThread, resourceLimits } from 'node:worker_threads';

/** One JavaScript thread's own memory, in bytes: its V8 heap (each thread has one) and its buffers. */
export interface ThreadMemory {
  /** `main`, or the thread's role (`persistence`, `indexer`, `audit`). */
  readonly thread: string;
  readonly heapUsed: number;
  readonly heapTotal: number;
  /** The most its heap may grow to (V8's limit for this thread). */
  readonly heapLimit: number;
  /** Memory of C++ objects bound to this thread's JavaScript objects (arrayBuffers included). */
  readonly external: number;
  /**
   * A worker thread's bound on its young generation (the resource limit it was started with); the
   * main thread's is set by the process's flags (`--max-semi-space-size`), and not reported.
   */
  readonly youngGenerationLimit?: number;
}

/**
 * What the process holds in memory, in bytes: Node's own counters, and on Linux the resident set split
 * into anonymous memory (heaps, SQLite page caches, buffers) and file-backed pages (the code, and
 * memory-mapped database files: the kernel can drop those under pressure).
 */
export interface ProcessMemory {
  /** Resident set of the whole process: every thread (consumer workers, checkpointer) is in it. */
  readonly rss: number;
  /** The calling thread's V8 heap; a worker thread's heap is counted in rss, not here. */
  readonly heapUsed: number;
  readonly heapTotal: number;
  /** Memory of C++ objects bound to the calling thread's JavaScript objects (arrayBuffers included). */
  readonly external: number;
  readonly arrayBuffers: number;
  /** Linux only: resident anonymous memory (RssAnon of /proc/self/status). */
  readonly rssAnon?: number;
  /** Linux only: resident file-backed pages (RssFile), memory-mapped SQLite files included. */
  readonly rssFile?: number;
  /** Linux only: resident shared memory (RssShmem): mapped files on tmpfs. The three add up to rss. */
  readonly rssShmem?: number;
  /**
   * Each JavaScript thread of the process, the calling one first (where the process reports its threads:
   * the all-in-one catalog's consumer threads); their heaps are inside rss.
   */
  readonly threads?: readonly ThreadMemory[];
}

/** The calling thread's own memory (see ThreadMemory), as `thread`. */
export function threadMemory(thread: string): ThreadMemory {
  const heap = getHeapStatistics();
  const young = isMainThread ? undefined : resourceLimits.maxYoungGenerationSizeMb;
  return {
    thread,
    heapUsed: heap.used_heap_size,
    heapTotal: heap.total_heap_size,
    heapLimit: heap.heap_size_limit,
    external: heap.external_memory,
    ...(young === undefined ? {} : { youngGenerationLimit: young * 1024 * 1024 }),
  };
}

/**
 * The process's memory now. process.memoryUsage() reads rss from the operating system, so it covers
 * the worker threads of the same process; the heap figures are the calling thread's only. With
 * `otherThreads` (what the process's other threads report of themselves), `threads` lists them all.
 */
export async function processMemory(
  otherThreads?: () => Promise<readonly ThreadMemory[]>,
): Promise<ProcessMemory> {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  const split = await residentSplit();
  if (otherThreads === undefined) return { rss, heapUsed, heapTotal, external, arrayBuffers, ...split };
  const threads = [threadMemory('main'), ...(await otherThreads())];
  return { rss, heapUsed, heapTotal, external, arrayBuffers, ...split, threads };
}

/** RssAnon, RssFile and RssShmem of /proc/self/status, in bytes; nothing where it is not there. */
async function residentSplit(): Promise<Pick<ProcessMemory, 'rssAnon' | 'rssFile' | 'rssShmem'>> {
  let status: string;
  try {
    status = await readFile('/proc/self/status', 'utf8');
  } catch {
    return {};
  }
  const kib = (field: string): number | undefined => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const split: { rssAnon?: number; rssFile?: number; rssShmem?: number } = {};
  for (const [key, field] of [
    ['rssAnon', 'RssAnon'],
    ['rssFile', 'RssFile'],
    ['rssShmem', 'RssShmem'],
  ] as const) {
    const bytes = kib(field);
    if (bytes !== undefined) split[key] = bytes;
  }
  return split;
}
