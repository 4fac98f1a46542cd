import { setImmediate as nextTurn } from 'node:timers/promises';
import { createGraphQLError } from 'graphql-yoga';
import { ValidationError } from '@catalog/model';
import { formatLimit, type GraphQLLimits } from './graphql-limits.js';

/** List items completed per turn of the event loop: a few milliseconds of resolvers. */
const PACE_CHUNK = 250;

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
  private paced = 0;
  private paceTurn: Promise<void> = Promise.resolve();
  /** Aborted when the time budget runs out or the client goes away. */
  readonly signal: AbortSignal;

  constructor(
    private readonly limits: Pick<GraphQLLimits, 'timeoutMs' | 'maxEntities'>,
    clientGone?: AbortSignal,
  ) {
    this.signal =
      clientGone === undefined
        ? this.controller.signal
        : AbortSignal.any([clientGone, this.controller.signal]);
  }

  /** Starts the clock, when execution starts: parsing and validation are bounded by the query's size. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.controller.abort(this.expired()), this.limits.timeoutMs);
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
   * Resolves on a later turn of the event loop than the previous call did, then throws if the budget ran
   * out meanwhile: what a heavy read (a search, a batch of entities) awaits first. The embedded search
   * answers synchronously; the aliased searches of one query, each awaiting a `setImmediate` of its own,
   * would still run back to back in one turn (immediates queued together run together), so turns are
   * chained: between two heavy reads of a request the loop serves what waits (`/health`, other users).
   */
  takeTurn(): Promise<void> {
    const turn = this.turns.then(() => nextTurn()).then(() => this.throwIfExpired());
    // A failed turn must not fail the ones after it: each caller sees its own.
    this.turns = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Resolves on the turn of the chunk of PACE_CHUNK calls this call falls in: what each item of a long
   * list awaits, so that the executor completes a chunk of items per turn of the event loop.
   */
  pace(): Promise<void> {
    if (this.paced++ % PACE_CHUNK === 0) this.paceTurn = this.takeTurn();
    return this.paceTurn;
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
