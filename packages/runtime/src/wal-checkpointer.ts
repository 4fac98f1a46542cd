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
  readonly logger?: Logger;
}

/**
 * The thread's code. PASSIVE checkpoints copy committed WAL frames back into the database file without
 * waiting for readers or blocking writers; the next writer then restarts the WAL from the beginning.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
const checkpoint = () => {
  for (const [file, db] of files) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
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
      files.set(message.file, db);
    } catch (error) {
      parentPort.postMessage({ type: 'failed', file: message.file, message: String(error && error.message) });
    }
  } else if (message.type === 'unwatch') {
    const db = files.get(message.file);
    files.delete(message.file);
    if (db) db.close();
  } else if (message.type === 'stop') {
    clearInterval(timer);
    for (const db of files.values()) db.close();
    files.clear();
    parentPort.close();
  }
});
`;

/** Thread failures survived before the checkpointer gives up (commits then checkpoint at the backstop). */
const MAX_RESTARTS = 3;

type ThreadReport = { type: 'failed'; file: string; message: string };

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
  private restarts = 0;

  constructor(private readonly options: WalCheckpointerOptions = {}) {
    this.intervalMs = options.intervalMs ?? 250;
    if (!Number.isInteger(this.intervalMs) || this.intervalMs < 1)
      throw new RangeError(`intervalMs must be a positive integer, got ${this.intervalMs}`);
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
      workerData: { driver, intervalMs: this.intervalMs },
    });
    worker.unref();
    worker.on('message', (report: ThreadReport) =>
      this.options.logger?.warn({ file: report.file, reason: report.message }, 'WAL checkpoint failed'),
    );
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
