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
  /**
   * The listener waiting for it (the proposal's PROPOSAL_HEADERS.replyTo): a log channel sends it as a
   * record header, not in the outcome's body.
   */
  readonly replyTo?: string;
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
  /**
   * What a proposal whose outcome is awaited carries as PROPOSAL_HEADERS.replyTo, so that the outcome
   * reaches this listener among several; undefined when one process holds every waiter (in process).
   */
  readonly replyTo?: string | undefined;
  close(): Promise<void>;
}
