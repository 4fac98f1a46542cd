import { UnavailableError } from '@catalog/model';
import type { OutcomeChannel, ProposalOutcome } from './outcome.js';
import { PendingOutcomes } from './pending-outcomes.js';

/** For the all-in-one process: persistence hands outcomes straight to the waiting gateway requests. */
export class InProcessOutcomeChannel implements OutcomeChannel {
  private readonly pending = new PendingOutcomes();

  publish(outcomes: readonly ProposalOutcome[]): Promise<void> {
    for (const outcome of outcomes) this.pending.settle(outcome);
    return Promise.resolve();
  }

  expect(requestId: string, timeoutMs: number): Promise<ProposalOutcome> {
    return this.pending.expect(requestId, timeoutMs);
  }

  forget(requestId: string): void {
    this.pending.forget(requestId);
  }

  close(): Promise<void> {
    this.pending.rejectAll(new UnavailableError('The service is shutting down'));
    return Promise.resolve();
  }
}
