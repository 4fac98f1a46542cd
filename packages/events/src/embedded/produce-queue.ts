import type { LogDatabase, PlacedRecord } from './log-database.js';

interface PendingProduce {
  readonly placed: readonly PlacedRecord[];
  readonly resolve: (offsets: number[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: produce calls made in the same turn of the event loop are appended in ONE SQLite
 * transaction (flushed on setImmediate), and each call resolves only after that transaction commits.
 * Throughput then scales with concurrency instead of paying one commit per call.
 */
export class ProduceQueue {
  private pending: PendingProduce[] = [];
  private scheduled = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: (() => void) | undefined;

  constructor(
    private readonly db: LogDatabase,
    private readonly onCommitted: (placed: readonly PlacedRecord[]) => void,
  ) {}

  enqueue(placed: readonly PlacedRecord[]): Promise<number[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ placed, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Makes sure the connection's deferred commits are written at the next flush: with the records
   * produced meanwhile (a consumer that produces usually starts its next batch first), else alone.
   */
  flushCommitsSoon(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.idle = new Promise((done) => (this.markIdle = done));
    setImmediate(() => this.flush());
  }

  /** Resolves once everything enqueued so far is committed (or failed). */
  drained(): Promise<void> {
    return this.idle;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 0) {
      this.flushCommitsOnly();
      return;
    }
    const all = batch.length === 1 ? (batch[0]?.placed ?? []) : batch.flatMap((p) => p.placed);
    let offsets: number[];
    try {
      offsets = this.db.append(all);
    } catch (error) {
      for (const p of batch) p.reject(error);
      if (this.db.hasDeferredCommits) setTimeout(() => this.schedule(), 100).unref();
      this.markIdle?.();
      return;
    }
    let at = 0;
    for (const p of batch) {
      p.resolve(offsets.slice(at, at + p.placed.length));
      at += p.placed.length;
    }
    this.markIdle?.();
    this.onCommitted(all);
  }

  private flushCommitsOnly(): void {
    try {
      this.db.flushDeferredCommits();
    } catch {
      // The file stayed locked past busy_timeout: the commits stay deferred (their consumers already
      // moved on); try again shortly. A crash meanwhile only redelivers.
      setTimeout(() => this.schedule(), 100).unref();
    }
    this.markIdle?.();
  }
}
