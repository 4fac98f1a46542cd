import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { EventLogLogger } from '../event-log-logger.js';
import type { LogDatabase } from './log-database.js';

export interface RetentionEnforcerOptions {
  /** Pause between two passes. */
  readonly intervalMs: number;
  /** Records deleted per transaction, in whole batches: each step holds the write lock only that long. */
  readonly chunkRows: number;
  /** Pages returned to the file system per incremental-vacuum step. */
  readonly vacuumChunkPages: number;
}

/** What one pass removed. */
export interface RetentionPass {
  readonly deleted: number;
  readonly bytes: number;
  /** Pages returned to the file system (the file shrinks by as many pages at the next checkpoint). */
  readonly releasedPages: number;
}

/**
 * Enforces each topic's retention in the background: deletes the records past their topic's time or
 * size bound in small transactions, yielding to the event loop between them, so producers and
 * consumers of the same connection keep going; then gives the freed pages back to the file system.
 * Deletion follows Kafka: by time and size only, whether or not every group has read the records.
 */
export class RetentionEnforcer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RetentionPass> | undefined;
  private stopped = false;

  constructor(
    private readonly db: LogDatabase,
    private readonly logger: EventLogLogger,
    private readonly options: RetentionEnforcerOptions,
  ) {}

  /** Schedules passes every `intervalMs` (the first one interval after start). */
  start(): void {
    if (this.stopped || this.timer) return;
    this.schedule();
  }

  /** One full pass now; a pass already running is awaited instead of started twice. */
  runOnce(now: number = Date.now()): Promise<RetentionPass> {
    this.running ??= this.pass(now).finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops scheduling and waits for a pass in flight (it stops at its next step). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runOnce()
        .then((pass) => {
          if (pass.deleted > 0 || pass.releasedPages > 0) this.logger.info({ ...pass }, 'retention applied');
        })
        .catch((error: unknown) => this.logger.warn({ err: error }, 'retention failed; will retry'))
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.options.intervalMs);
    // Retention must not keep a process alive on its own.
    this.timer.unref();
  }

  private async pass(now: number): Promise<RetentionPass> {
    let deleted = 0;
    let bytes = 0;
    for (const topic of this.db.topicsWithRetention()) {
      const cutoff = topic.retentionMs >= 0 ? now - topic.retentionMs : undefined;
      const maxBytes = topic.retentionBytes >= 0 ? topic.retentionBytes : undefined;
      for (let partition = 0; partition < topic.partitions; partition++) {
        for (;;) {
          if (this.stopped) return { deleted, bytes, releasedPages: 0 };
          const step = this.db.trimHead(topic.id, partition, cutoff, maxBytes, this.options.chunkRows);
          deleted += step.deleted;
          bytes += step.bytes;
          if (!step.more) break;
          await yieldToEventLoop();
        }
      }
    }
    let releasedPages = 0;
    while (!this.stopped) {
      const released = this.db.releaseFreePages(this.options.vacuumChunkPages);
      releasedPages += released;
      if (released === 0) break;
      await yieldToEventLoop();
    }
    return { deleted, bytes, releasedPages };
  }
}
