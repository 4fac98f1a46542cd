import type { RecordPosition } from '@catalog/events';
import type { ErrorCode } from '@catalog/model';

/** What persistence decided for one proposal, reported back to the gateway that produced it. */
export interface ProposalOutcome {
  readonly requestId: string;
  readonly ok: boolean;
  /** The store's status for versioned aspects (CREATED, UPDATED, UNCHANGED, DELETED); TIMESERIES otherwise. */
  readonly status?: string;
  /** Why a proposal was rejected, as a domain error code. */
  readonly code?: ErrorCode;
  readonly message?: string;
  readonly urn?: string;
  readonly aspectName?: string;
  /** Where the change logs of this proposal landed: a reader can wait until its consumers pass them. */
  readonly changeLogs?: readonly RecordPosition[];
}

/** Carries outcomes from persistence to the gateway waiting on a synchronous write. */
export interface OutcomeChannel {
  /** Resolves once the outcomes are handed over (durable when the channel is a log). */
  publish(outcomes: readonly ProposalOutcome[]): Promise<void>;
  /**
   * Registers interest in a request id; call it BEFORE producing the proposal. The promise rejects with
   * an UnavailableError after `timeoutMs`.
   */
  expect(requestId: string, timeoutMs: number): Promise<ProposalOutcome>;
  /** Abandons a registration (e.g. the produce failed). */
  forget(requestId: string): void;
  close(): Promise<void>;
}
