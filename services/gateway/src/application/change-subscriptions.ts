import type { RequestContext } from '@catalog/auth';
import { ThrottledError, ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import {
  compileChangeEventFilter,
  matchesChangeEvent,
  type ChangeEventFilter,
  type CompiledChangeEventFilter,
  type StreamedChangeEvent,
} from './change-event-filter.js';
import {
  changeEventOfRecord,
  type ChangeEventFeed,
  type ChangeEventListener,
  type ChangeEventRun,
} from './change-event-stream.js';
import type { PartitionOffsets } from '@catalog/events';
import { decodeOffsetId, encodeOffsetId } from './events-poll.js';

/** What bounds live subscriptions (GRAPHQL_SUBSCRIPTION_* in the gateway's configuration). */
export interface ChangeSubscriptionLimits {
  /** Change events one stream may hold for a client that has not taken them yet; past it the stream ends. */
  readonly maxBufferedEvents: number;
  /** Streams one user may have open at once in one gateway process. */
  readonly maxStreamsPerUser: number;
}

export const DEFAULT_CHANGE_SUBSCRIPTION_LIMITS: ChangeSubscriptionLimits = Object.freeze({
  maxBufferedEvents: 1_000,
  maxStreamsPerUser: 5,
});

/** Records read per catch-up read of the log (a resume, or a gap the live tail did not carry). */
const CATCH_UP_RECORDS = 500;

/** One change event of a stream, with the opaque position right after it (what resumes the stream). */
export interface StreamedChange {
  readonly kind: 'change';
  readonly event: StreamedChangeEvent;
  readonly position: string;
}

/** The stream's last item when its client fell too far behind: it ends after this. */
export interface StreamOverflow {
  readonly kind: 'overflow';
  readonly maxBufferedEvents: number;
}

export type StreamItem = StreamedChange | StreamOverflow;

export interface OpenStreamRequest {
  readonly filter: ChangeEventFilter;
  /** The position of the last event the client received (its SSE Last-Event-ID); absent: from now on. */
  readonly after?: string;
  /** Aborted when the client goes away: the stream ends and stops counting against the user's limit. */
  readonly signal?: AbortSignal;
  /**
   * Called when the client fell more than maxBufferedEvents behind: the stream no longer buffers nor
   * counts against the limit, and its next item is the overflow. A client that reads nothing at all never
   * asks for it: the interface cuts such a connection.
   */
  readonly onOverflow?: () => void;
}

/**
 * Live subscriptions to entity change events: the events of `PlatformEvent_v1` after a position, as the
 * actor may read them (each event is decided when it is sent, as a read of its entity: privileges that
 * changed since the stream opened apply), filtered as asked. Positions are the events poll's offset
 * tokens, so a client that lost its connection resumes right after the last event it received.
 */
export class ChangeSubscriptions {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly feed: ChangeEventFeed,
    private readonly policy: AccessPolicy,
    private readonly limits: ChangeSubscriptionLimits = DEFAULT_CHANGE_SUBSCRIPTION_LIMITS,
  ) {}

  /**
   * Opens a stream positioned at `after` (or the log's end): resolves once every event produced after
   * the position will reach it. A 400 for a bad filter or position, a 429 past the user's stream limit.
   */
  async subscribe(
    ctx: RequestContext,
    request: OpenStreamRequest,
  ): Promise<AsyncIterableIterator<StreamItem>> {
    const filter = compileChangeEventFilter(request.filter);
    const actor = ctx.authentication.actorUrn;
    const held = this.open.get(actor) ?? 0;
    if (held >= this.limits.maxStreamsPerUser)
      throw new ThrottledError(
        `${actor} already has ${held} change streams open, the limit per user ` +
          `(GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER = ${this.limits.maxStreamsPerUser}); close one first`,
      );
    this.open.set(actor, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.open.get(actor) ?? 1) - 1;
      if (left > 0) this.open.set(actor, left);
      else this.open.delete(actor);
    };
    try {
      const stream = new ChangeStream(
        this.feed,
        this.policy,
        ctx,
        filter,
        this.limits,
        release,
        request.onOverflow,
      );
      await stream.start(request.after, request.signal);
      return stream;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Streams open now per user (for tests and operators). */
  openStreams(actorUrn: string): number {
    return this.open.get(actorUrn) ?? 0;
  }
}

type Work =
  | { readonly kind: 'run'; run: ChangeEventRun; events: ChangeEventRun['events'] }
  | { readonly kind: 'fill'; readonly partition: number; readonly until: bigint };

/**
 * One client's stream: the live runs the feed hands it (only the matching events kept, at most
 * `maxBufferedEvents` of them waiting), and catch-up reads of the log for what the tail did not carry
 * (from a resume position to the end when it opened, or a gap). Its position per partition moves past
 * every record it has looked at; each event sent carries the position right after it.
 */
class ChangeStream implements AsyncIterableIterator<StreamItem>, ChangeEventListener {
  private readonly position = new Map<number, bigint>();
  private readonly work: Work[] = [];
  private readonly ready: StreamItem[] = [];
  private buffered = 0;
  private overflowed = false;
  private ended = false;
  private wake: (() => void) | undefined;
  private unlisten: (() => void) | undefined;
  private onAbort: (() => void) | undefined;
  private signal: AbortSignal | undefined;

  constructor(
    private readonly feed: ChangeEventFeed,
    private readonly policy: AccessPolicy,
    private readonly ctx: RequestContext,
    private readonly filter: CompiledChangeEventFilter,
    private readonly limits: ChangeSubscriptionLimits,
    private readonly release: () => void,
    private readonly onOverflow: (() => void) | undefined,
  ) {}

  async start(after: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const topic = this.feed.topic;
    let resume: Map<number, string> | undefined;
    if (after !== undefined) {
      try {
        resume = decodeOffsetId(after, topic);
      } catch (error) {
        throw new ValidationError(
          `Last-Event-ID is not a position of this stream: ${(error as Error).message}`,
        );
      }
    }
    this.unlisten = await this.feed.listen(this);
    try {
      this.positionAt(await this.feed.log.offsets(topic), resume);
    } catch (error) {
      this.unlisten();
      throw error;
    }
    if (signal !== undefined) {
      this.signal = signal;
      this.onAbort = () => this.end();
      if (signal.aborted) this.end();
      else signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Starts at the resume position (catching up to the ends) or at the ends. */
  private positionAt(
    ends: readonly PartitionOffsets[],
    resume: ReadonlyMap<number, string> | undefined,
  ): void {
    const topic = this.feed.topic;
    if (resume !== undefined) {
      const unknown = [...resume.keys()].filter((p) => !ends.some((e) => e.partition === p));
      if (unknown.length > 0)
        throw new ValidationError(
          `Last-Event-ID names partition ${unknown.join(', ')} of ${topic}, which it does not have`,
        );
    }
    for (const { partition, start, end } of ends) {
      // A partition the position does not name (added since) is read from its start.
      const from = BigInt(resume === undefined ? end : (resume.get(partition) ?? start));
      this.position.set(partition, from);
      if (from < BigInt(end)) this.work.unshift({ kind: 'fill', partition, until: BigInt(end) });
    }
  }

  onRun(run: ChangeEventRun): void {
    if (this.ended || this.overflowed) return;
    const events = run.events.filter((e) => matchesChangeEvent(this.filter, e.event));
    const last = this.work.at(-1);
    // Consecutive runs of a partition become one item: a stream that matches nothing holds one per partition.
    if (last?.kind === 'run' && last.run.partition === run.partition && last.run.next === run.first) {
      last.run = { ...last.run, next: run.next };
      last.events = [...last.events, ...events];
    } else {
      this.work.push({ kind: 'run', run, events });
    }
    this.buffered += events.length;
    if (this.buffered > this.limits.maxBufferedEvents || this.work.length > this.limits.maxBufferedEvents) {
      this.overflowed = true;
      this.work.length = 0;
      this.buffered = 0;
      // Memory and the user's slot are given back now, not when (if ever) the client asks for more.
      this.unlisten?.();
      this.release();
      this.onOverflow?.();
    }
    this.wake?.();
  }

  onClose(): void {
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamItem> {
    return this;
  }

  async next(): Promise<IteratorResult<StreamItem>> {
    for (;;) {
      if (this.ended) return this.finish();
      const item = this.ready.shift();
      if (item !== undefined) return { done: false, value: item };
      if (this.overflowed) {
        this.end();
        return { done: false, value: { kind: 'overflow', maxBufferedEvents: this.limits.maxBufferedEvents } };
      }
      const work = this.work.shift();
      if (work === undefined) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      if (work.kind === 'fill') await this.catchUp(work.partition, work.until);
      else await this.take(work.run, work.events);
    }
  }

  async return(): Promise<IteratorResult<StreamItem>> {
    this.end();
    return this.finish();
  }

  private finish(): IteratorResult<StreamItem> {
    this.ready.length = 0;
    return { done: true, value: undefined };
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.work.length = 0;
    this.unlisten?.();
    if (this.onAbort !== undefined) this.signal?.removeEventListener('abort', this.onAbort);
    this.release();
    this.wake?.();
  }

  /** A live run: first what the log holds between the stream's position and the run, then its events. */
  private async take(run: ChangeEventRun, events: ChangeEventRun['events']): Promise<void> {
    this.buffered -= events.length;
    const at = this.position.get(run.partition) ?? 0n;
    if (run.first > at) {
      this.work.unshift({ kind: 'run', run, events });
      this.buffered += events.length;
      this.work.unshift({ kind: 'fill', partition: run.partition, until: run.first });
      return;
    }
    const fresh = events.filter((e) => e.offset >= at);
    await this.send(run.partition, fresh);
    if (run.next > (this.position.get(run.partition) ?? 0n)) this.position.set(run.partition, run.next);
  }

  /** Reads the log of one partition from the stream's position up to `until` (one read per call). */
  private async catchUp(partition: number, until: bigint): Promise<void> {
    const at = this.position.get(partition) ?? 0n;
    if (at >= until) return;
    const records = await this.feed.log.read(this.feed.topic, new Map([[partition, at.toString()]]), {
      maxRecords: Number(until - at < BigInt(CATCH_UP_RECORDS) ? until - at : BigInt(CATCH_UP_RECORDS)),
    });
    const within = records.filter((r) => BigInt(r.offset) < until);
    if (within.length === 0) {
      // Nothing stored there any more (retention removed it): the tail goes on from `until`.
      this.position.set(partition, until);
      return;
    }
    const events = within.flatMap((record) => {
      const event = changeEventOfRecord(record);
      return event !== undefined && matchesChangeEvent(this.filter, event)
        ? [{ partition, offset: BigInt(record.offset), event }]
        : [];
    });
    await this.send(partition, events);
    const next = BigInt(within.at(-1)?.offset ?? at.toString()) + 1n;
    if (next > (this.position.get(partition) ?? 0n)) this.position.set(partition, next);
    if (next < until) this.work.unshift({ kind: 'fill', partition, until });
  }

  /**
   * Queues the events the actor may read now, each with the position right after it; the stream's
   * position moves past all of them, sent or not.
   */
  private async send(partition: number, events: ChangeEventRun['events']): Promise<void> {
    if (events.length === 0) return;
    const readable = new Set(
      await this.policy.readable(this.ctx, [...new Set(events.map((e) => e.event.entityUrn))]),
    );
    for (const { offset, event } of events) {
      this.position.set(partition, offset + 1n);
      if (!readable.has(event.entityUrn)) continue;
      this.ready.push({ kind: 'change', event, position: this.token() });
    }
  }

  private token(): string {
    return encodeOffsetId(
      this.feed.topic,
      new Map([...this.position].map(([partition, offset]) => [partition, offset.toString()])),
    );
  }
}
