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
      if (!this.scheduled) {
        this.scheduled = true;
        this.idle = new Promise((done) => (this.markIdle = done));
        setImmediate(() => this.flush());
      }
    });
  }

  /** Resolves once everything enqueued so far is committed (or failed). */
  drained(): Promise<void> {
    return this.idle;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const all = batch.length === 1 ? (batch[0]?.placed ?? []) : batch.flatMap((p) => p.placed);
    let offsets: number[];
    try {
      offsets = this.db.append(all);
    } catch (error) {
      for (const p of batch) p.reject(error);
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
}
