import { UnavailableError } from '@catalog/model';
import type { ProposalOutcome } from './outcome.js';

interface Waiter {
  resolve(outcome: ProposalOutcome): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The registry of requests waiting for their outcome, shared by every OutcomeChannel adapter. */
export class PendingOutcomes {
  private readonly waiters = new Map<string, Waiter>();

  expect(requestId: string, timeoutMs: number): Promise<ProposalOutcome> {
    return new Promise<ProposalOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(requestId);
        reject(
          new UnavailableError(
            `The proposal ${requestId} was accepted but persistence did not report within ${timeoutMs} ms; it may still be applied`,
          ),
        );
      }, timeoutMs);
      this.waiters.set(requestId, { resolve, reject, timer });
    });
  }

  settle(outcome: ProposalOutcome): void {
    const waiter = this.waiters.get(outcome.requestId);
    if (!waiter) return;
    this.waiters.delete(outcome.requestId);
    clearTimeout(waiter.timer);
    waiter.resolve(outcome);
  }

  forget(requestId: string): void {
    const waiter = this.waiters.get(requestId);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiters.delete(requestId);
  }

  rejectAll(error: Error): void {
    for (const [id, waiter] of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
      this.waiters.delete(id);
    }
  }

  get size(): number {
    return this.waiters.size;
  }
}
