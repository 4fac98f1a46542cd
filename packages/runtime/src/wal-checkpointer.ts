import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';

/**
 * The WAL page count at which the embedded adapters' own connections still checkpoint inside a commit
 * when the background checkpointer is on: a backstop (about 400 MB) should the checkpointer fall behind.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 100_000;

export interface WalCheckpointerOptions {
  /** How often each watched file is checkpointed. Default 250 ms. */
  readonly intervalMs?: number;
  /**
   * The WAL size at which the thread forces the log to start over (a TRUNCATE checkpoint) when passive
   * checkpoints have not let it. Default 64 MiB, the embedded files' journal_size_limit.
   */
  readonly truncateAtBytes?: number;
  /**
   * The pause after a TRUNCATE checkpoint that readers or a writer held off, doubled after each such
   * checkpoint up to `truncateRetryMaxMs`. Defaults TRUNCATE_RETRY_MS and TRUNCATE_RETRY_MAX_MS.
   */
  readonly truncateRetryMs?: number;
  readonly truncateRetryMaxMs?: number;
  readonly logger?: Logger;
}

/** How long a TRUNCATE checkpoint waits for readers of older snapshots (writers wait meanwhile). */
export const TRUNCATE_WAIT_MS = 100;
/** The first pause after a TRUNCATE checkpoint that readers held off; doubled after each, up to the most. */
export const TRUNCATE_RETRY_MS = 1_000;
/**
 * The longest pause. Short, because while it lasts the WAL grows at the write rate: with 60 s, attempts
 * held off a few times running during a bulk load left a 246 MiB search WAL at 100,000 datasets. At 4 s,
 * failed attempts hold writers back for at most 2.5% of the time (TRUNCATE_WAIT_MS in every pause).
 */
export const TRUNCATE_RETRY_MAX_MS = 4_000;

/**
 * The thread's code. PASSIVE checkpoints copy committed WAL frames back into the database file without
 * waiting for readers or blocking writers; the next writer then restarts the WAL from the beginning.
 *
 * A writer can only start the WAL over when no reader still reads from it. Under a steady load the
 * readers overlap (searches on the main thread, the consumers' reads), some reader always holds an older
 * snapshot, and the WAL only grows: a million datasets left 244 MiB of it beside the search index and
 * 301 MiB beside the store. So once the WAL passes its bound, the thread asks for a TRUNCATE checkpoint:
 * it holds new writers back (they wait in their busy handler) for at most TRUNCATE_WAIT_MS while the
 * readers of older snapshots finish, copies the rest, and cuts the WAL to zero bytes. If readers are still
 * there when the wait ends (a restore reading the whole store), it gives up without harm and tries again
 * later, backing off so that a long reader does not make writers wait every interval.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
const truncateIfLong = (file, watched, frames) => {
  if (frames * (watched.pageSize + 24) < workerData.truncateAtBytes) return;
  const now = Date.now();
  if (now < watched.retryAt) return;
  watched.db.pragma('busy_timeout = ' + workerData.truncateWaitMs);
  try {
    const [result] = watched.db.pragma('wal_checkpoint(TRUNCATE)');
    if (result.busy === 0) {
      watched.pauseMs = workerData.retryMs;
      watched.retryAt = 0;
      parentPort.postMessage({ type: 'truncated', file, frames });
    } else {
      parentPort.postMessage({ type: 'heldOff', file, frames });
      watched.retryAt = now + watched.pauseMs;
      watched.pauseMs = Math.min(watched.pauseMs * 2, workerData.retryMaxMs);
    }
  } finally {
    watched.db.pragma('busy_timeout = 0');
  }
};
const checkpoint = () => {
  for (const [file, watched] of files) {
    try {
      const [result] = watched.db.pragma('wal_checkpoint(PASSIVE)');
      if (result.busy === 0 && result.log > 0) truncateIfLong(file, watched, result.log);
    } catch (error) {
      parentPort.postMessage({ type: 'failed', file, message: String(error && error.message) });
    }
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type === 'watch' && !files.has(message.file)) {
    try {
      const db = new Database(message.file, { fileMustExist: true, timeout: 0 });
      // A checkpoint copies WAL frames without the page cache: keep it small, out of the memory bound.
      db.pragma('cache_size = -256');
      const pageSize = db.pragma('page_size', { simple: true });
      files.set(message.file, { db, pageSize, retryAt: 0, pauseMs: workerData.retryMs });
    } catch (error) {
      parentPort.postMessage({ type: 'failed', file: message.file, message: String(error && error.message) });
    }
  } else if (message.type === 'unwatch') {
    const watched = files.get(message.file);
    files.delete(message.file);
    if (watched) watched.db.close();
  } else if (message.type === 'stop') {
    clearInterval(timer);
    for (const watched of files.values()) watched.db.close();
    files.clear();
    parentPort.close();
  }
});
`;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** Thread failures survived before the checkpointer gives up (commits then checkpoint at the backstop). */
const MAX_RESTARTS = 3;

type ThreadReport =
  | { type: 'failed'; file: string; message: string }
  | { type: 'truncated' | 'heldOff'; file: string; frames: number };

/** What the thread did to one file since it was first watched. */
export interface WalCheckpointStats {
  /** TRUNCATE checkpoints that emptied the WAL. */
  truncated: number;
  /** TRUNCATE checkpoints that readers or a writer held off (retried after a pause). */
  heldOff: number;
  /** Checkpoints or opens that failed, and the last reason. */
  failed: number;
  lastFailure?: string;
}

/**
 * Checkpoints SQLite files in WAL mode from a thread of its own, so that no commit on an event loop
 * that serves requests or consumes the log has to copy the WAL back and fsync (which showed as the p99
 * of synchronous writes). Files are watched while some adapter of this process has them open; the
 * thread runs while anything is watched and never keeps the process alive.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private readonly watchers = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly truncateAtBytes: number;
  private readonly truncateRetryMs: number;
  private readonly truncateRetryMaxMs: number;
  private restarts = 0;
  private readonly counts = new Map<string, WalCheckpointStats>();

  constructor(private readonly options: WalCheckpointerOptions = {}) {
    this.intervalMs = positiveInteger('intervalMs', options.intervalMs ?? 250);
    this.truncateAtBytes = positiveInteger('truncateAtBytes', options.truncateAtBytes ?? 64 * 1024 * 1024);
    this.truncateRetryMs = positiveInteger('truncateRetryMs', options.truncateRetryMs ?? TRUNCATE_RETRY_MS);
    this.truncateRetryMaxMs = positiveInteger(
      'truncateRetryMaxMs',
      options.truncateRetryMaxMs ?? Math.max(TRUNCATE_RETRY_MAX_MS, this.truncateRetryMs),
    );
    if (this.truncateRetryMaxMs < this.truncateRetryMs)
      throw new RangeError(
        `truncateRetryMaxMs (${this.truncateRetryMaxMs}) must not be below truncateRetryMs (${this.truncateRetryMs})`,
      );
  }

  /** Starts checkpointing the file (counted: each watch needs its own unwatch). */
  watch(file: string): void {
    const count = this.watchers.get(file) ?? 0;
    this.watchers.set(file, count + 1);
    if (count === 0) this.thread().postMessage({ type: 'watch', file });
  }

  unwatch(file: string): void {
    const count = this.watchers.get(file) ?? 0;
    if (count === 0) return;
    if (count > 1) {
      this.watchers.set(file, count - 1);
      return;
    }
    this.watchers.delete(file);
    this.worker?.postMessage({ type: 'unwatch', file });
    if (this.watchers.size === 0) this.stop();
  }

  /** What the thread did to the file so far (zeros for a file it never reported on). */
  stats(file: string): WalCheckpointStats {
    return { ...(this.counts.get(file) ?? { truncated: 0, heldOff: 0, failed: 0 }) };
  }

  private count(report: ThreadReport): void {
    let stats = this.counts.get(report.file);
    if (stats === undefined) this.counts.set(report.file, (stats = { truncated: 0, heldOff: 0, failed: 0 }));
    if (report.type === 'failed') {
      stats.failed++;
      stats.lastFailure = report.message;
    } else stats[report.type]++;
  }

  /** Files currently watched. */
  get files(): readonly string[] {
    return [...this.watchers.keys()];
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    worker?.postMessage({ type: 'stop' });
  }

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        driver,
        intervalMs: this.intervalMs,
        truncateAtBytes: this.truncateAtBytes,
        truncateWaitMs: TRUNCATE_WAIT_MS,
        retryMs: this.truncateRetryMs,
        retryMaxMs: this.truncateRetryMaxMs,
      },
    });
    worker.unref();
    worker.on('message', (report: ThreadReport) => {
      this.count(report);
      if (report.type === 'heldOff') return;
      if (report.type === 'failed')
        this.options.logger?.warn({ file: report.file, reason: report.message }, 'WAL checkpoint failed');
      else this.options.logger?.debug({ file: report.file, frames: report.frames }, 'WAL truncated');
    });
    worker.on('error', (error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.watchers.size === 0) return;
      if (++this.restarts > MAX_RESTARTS) {
        this.options.logger?.error(
          { err: error },
          'WAL checkpoint thread failed again; commits checkpoint past the backstop from now on',
        );
        return;
      }
      this.options.logger?.warn({ err: error }, 'WAL checkpoint thread failed; restarting it');
      const next = this.thread();
      for (const file of this.watchers.keys()) next.postMessage({ type: 'watch', file });
    });
    this.worker = worker;
    return worker;
  }
}
