import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { ValidationError } from '@catalog/model';
import { formatLimit, type GraphQLLimits } from './graphql-limits.js';

/**
 * How long one request may run between two turns of the event loop it gives up: long enough that a
 * request of ordinary size never yields (a turn under load costs it the whole queue of other work),
 * short enough that `/health` and other users wait for no more than about this between turns while a
 * heavy request runs. Each turn given up lets the other requests in flight run, so more of their results
 * are alive at once and survive the young generation: at 10 ms a read of 100 entities among eight
 * concurrent ones gave up several turns and cost 17% more CPU (mostly collection) than at 50 ms.
 */
const SLICE_MS = 50;

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * One GraphQL request's budget: its time (an AbortSignal that the executor and long loops check, so an
 * expired budget stops the resolvers still to run instead of letting them finish unseen) and the
 * entities it may read from the store.
 */
export class RequestBudget {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private entities = 0;
  private turns: Promise<void> = Promise.resolve();
  /** When the request last had the event loop back (its start, or its last turn given up). */
  private sliceStartedAt = performance.now();
  /** The turn being waited for, while one is. */
  private pending: Promise<void> | undefined;
  /** Aborted when the time budget runs out or the client goes away. */
  readonly signal: AbortSignal;

  constructor(
    private readonly limits: Pick<GraphQLLimits, 'timeoutMs' | 'maxEntities'>,
    clientGone?: AbortSignal,
  ) {
    // One controller for both causes (not AbortSignal.any, which costs every request a composite
    // signal and its weak references on Node 20): the client going away aborts it too.
    this.signal = this.controller.signal;
    if (clientGone !== undefined) {
      if (clientGone.aborted) this.controller.abort(clientGone.reason);
      else
        clientGone.addEventListener('abort', () => this.controller.abort(clientGone.reason), { once: true });
    }
  }

  /** Starts the clock, when execution starts: parsing and validation are bounded by the query's size. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.controller.abort(this.expired()), this.limits.timeoutMs);
  }

  /**
   * Resolves, once the budget runs out, with the answer an expired request gets (its error naming the
   * limit); never while it has time left.
   */
  expiry(): Promise<ExecutionResult> {
    return new Promise((resolve) => {
      const answer = () => resolve({ errors: [this.signal.reason as GraphQLError] });
      if (this.signal.aborted) answer();
      else this.signal.addEventListener('abort', answer, { once: true });
    });
  }

  /** Stops the clock once the result is built. */
  stop(): void {
    clearTimeout(this.timer);
  }

  /** Throws the abort's reason when the budget ran out: what loops call between chunks. */
  throwIfExpired(): void {
    this.signal.throwIfAborted();
  }

  /**
   * What a heavy read (a search, a batch of entities) awaits first: once the request has held the event
   * loop for SLICE_MS since it last gave it up, resolves on a later turn (then throws if the budget ran
   * out meanwhile); before that, at once. The embedded search answers synchronously, so the aliased
   * searches of one query would otherwise run back to back in one turn; turns are chained, so that
   * between two slices of a heavy request the loop serves what waits (`/health`, other users).
   */
  takeTurn(): Promise<void> {
    if (this.pending === undefined && performance.now() - this.sliceStartedAt < SLICE_MS) {
      this.throwIfExpired();
      return RESOLVED;
    }
    const turn = this.turns
      .then(() => nextTurn())
      .then(() => {
        this.sliceStartedAt = performance.now();
        if (this.pending === turn) this.pending = undefined;
        this.throwIfExpired();
      });
    this.pending = turn;
    // A failed turn must not fail the ones after it: each caller sees its own.
    this.turns = turn.catch(() => undefined);
    return turn;
  }

  /**
   * What each item of a long list waits for: the turn being waited for if there is one, a new one once
   * the slice is used up, else nothing (undefined: go on at once), so that the executor completes a
   * slice of items per turn.
   */
  pace(): Promise<void> | undefined {
    if (this.pending !== undefined) return this.pending;
    if (performance.now() - this.sliceStartedAt < SLICE_MS) return undefined;
    return this.takeTurn();
  }

  /** Counts entities about to be read; past the ceiling the request is refused, naming it. */
  countEntities(n: number): void {
    this.entities += n;
    if (this.entities > this.limits.maxEntities)
      throw new ValidationError(
        `The request reads more than ${formatLimit(this.limits.maxEntities)} entities, the limit per request ` +
          '(GRAPHQL_MAX_ENTITIES); ask for fewer results or page through them',
      );
  }

  private expired(): Error {
    return createGraphQLError(
      `The request ran past its time budget of ${formatLimit(this.limits.timeoutMs)} ms (GRAPHQL_TIMEOUT_MS) ` +
        'and was aborted; ask for fewer results or split the query',
      { extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ExecutionAborted' } },
    );
  }
}
