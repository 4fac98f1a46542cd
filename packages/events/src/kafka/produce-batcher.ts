/**
 * Coalesces concurrent produce calls into few broker requests. Calls made in the same tick join one batch;
 * while a batch is in flight the next ones queue and leave together when it returns. One batch in flight at
 * a time keeps records of one key in call order even across retries, and bounds each request's size.
 */

export interface BatcherLimits {
  /** Upper bound on the summed record sizes of one send; keep it under the topics' max.message.bytes. */
  readonly maxBatchBytes: number;
  readonly maxBatchRecords: number;
}

export interface SizedRecord {
  /** Approximate bytes on the wire, for the batch size bound. */
  readonly size: number;
}

/** Sends records as one request and returns their offsets in input order. */
export type SendRecords<R extends SizedRecord> = (records: readonly R[]) => Promise<readonly string[]>;

interface PendingCall<R> {
  readonly records: readonly R[];
  readonly offsets: string[];
  /** Index of the first record not yet handed to a send. */
  next: number;
  /** Records not yet acknowledged. */
  remaining: number;
  failed: boolean;
  readonly resolve: (offsets: readonly string[]) => void;
  readonly reject: (error: unknown) => void;
}

interface Slot<R> {
  readonly call: PendingCall<R>;
  readonly index: number;
}

export class ProduceBatcher<R extends SizedRecord> {
  private queue: PendingCall<R>[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly send: SendRecords<R>,
    private readonly limits: BatcherLimits,
  ) {}

  /** Queues the records of one call; resolves with their offsets once all are acknowledged. */
  enqueue(records: readonly R[]): Promise<readonly string[]> {
    if (records.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({
        records,
        offsets: new Array<string>(records.length),
        next: 0,
        remaining: records.length,
        failed: false,
        resolve,
        reject,
      });
      this.schedule();
    });
  }

  /** Resolves when nothing is queued or in flight. */
  drained(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.running) return;
    this.running = true;
    // setImmediate, not a microtask: every call made in this tick (and its awaits) joins the first batch.
    setImmediate(() => void this.loop());
  }

  private async loop(): Promise<void> {
    while (this.queue.length > 0) {
      const slots = this.take();
      if (slots.length === 0) continue;
      try {
        const offsets = await this.send(slots.map((s) => s.call.records[s.index] as R));
        slots.forEach((slot, i) => {
          const { call } = slot;
          if (call.failed) return;
          call.offsets[slot.index] = offsets[i] ?? '-1';
          call.remaining -= 1;
          if (call.remaining === 0) call.resolve(call.offsets);
        });
      } catch (error) {
        for (const call of new Set(slots.map((s) => s.call))) this.fail(call, error);
      }
    }
    this.running = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Takes records from the head of the queue, whole calls first, up to the limits (at least one record). */
  private take(): Slot<R>[] {
    const slots: Slot<R>[] = [];
    let bytes = 0;
    while (this.queue.length > 0) {
      const call = this.queue[0] as PendingCall<R>;
      while (call.next < call.records.length) {
        const size = (call.records[call.next] as R).size;
        const full =
          slots.length >= this.limits.maxBatchRecords ||
          (slots.length > 0 && bytes + size > this.limits.maxBatchBytes);
        if (full) return slots;
        slots.push({ call, index: call.next });
        bytes += size;
        call.next += 1;
      }
      this.queue.shift();
    }
    return slots;
  }

  private fail(call: PendingCall<R>, error: unknown): void {
    if (call.failed) return;
    call.failed = true;
    // The rest of a partly sent call must not go out after its head failed.
    this.queue = this.queue.filter((c) => c !== call);
    call.reject(error);
  }
}
