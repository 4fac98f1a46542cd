import { decodePlatformEvent, type Consumer, type EventLog, type LogRecord } from '@catalog/events';
import type { Logger } from '@catalog/runtime';
import { changeEventOfPayload, type StreamedChangeEvent } from './change-event-filter.js';

/** The platform event the change-event producer writes (the ecosystem's CHANGE_EVENT_PLATFORM_EVENT_NAME). */
const ENTITY_CHANGE_EVENT = 'entityChangeEvent';

/** A change event with where it is in the log. */
export interface PositionedChangeEvent {
  readonly partition: number;
  readonly offset: bigint;
  readonly event: StreamedChangeEvent;
}

/**
 * A run of consecutive records of one partition of `PlatformEvent_v1` as the feed read them: the
 * change events among them, and the offsets the run covers (`first` up to, not including, `next`), so
 * that a reader knows it missed nothing in between.
 */
export interface ChangeEventRun {
  readonly partition: number;
  readonly first: bigint;
  readonly next: bigint;
  readonly events: readonly PositionedChangeEvent[];
}

/** What the feed hands each run to; called synchronously, in log order per partition. */
export interface ChangeEventListener {
  onRun(run: ChangeEventRun): void;
  /** The feed stopped (the gateway is closing): no run comes after this. */
  onClose(): void;
}

/**
 * The entity change event of a `PlatformEvent_v1` record, or undefined for another platform event or a
 * record that is not one (never an error: a reader of the stream must not stop on one bad record).
 */
export function changeEventOfRecord(record: LogRecord): StreamedChangeEvent | undefined {
  try {
    const platformEvent = decodePlatformEvent(record.value);
    if (platformEvent.name !== ENTITY_CHANGE_EVENT) return undefined;
    return changeEventOfPayload(JSON.parse(platformEvent.payload.value.toString('utf8')));
  } catch {
    return undefined;
  }
}

export interface ChangeEventFeedOptions {
  readonly log: EventLog;
  /** The configured name of `PlatformEvent_v1`. */
  readonly topic: string;
  /** This process's own group (ephemeral: every gateway reads every event from where it joined). */
  readonly groupId: string;
  readonly logger: Logger;
}

/**
 * The live tail of the entity change events on `PlatformEvent_v1`, read once per process and handed to
 * every open stream (live subscriptions here; any other push interface may listen too). It reads
 * through one ephemeral consumer from the end as it was when the first listener came, decodes each
 * record once, and hands runs to the listeners as they arrive. Records before its start, and anything a
 * listener missed, are read with `EventLog.read` by the listener itself: the feed only carries the tail.
 * Started by the first listener, stopped by `close`.
 */
export class ChangeEventFeed {
  private readonly listeners = new Set<ChangeEventListener>();
  private starting: Promise<Consumer> | undefined;
  private closed = false;

  constructor(private readonly options: ChangeEventFeedOptions) {}

  get topic(): string {
    return this.options.topic;
  }

  get log(): EventLog {
    return this.options.log;
  }

  /**
   * Adds a listener once the feed reads (every record produced after this resolves reaches it); returns
   * what removes it.
   */
  async listen(listener: ChangeEventListener): Promise<() => void> {
    if (this.closed) throw new Error('the change event feed is closed');
    this.listeners.add(listener);
    try {
      await (this.starting ??= this.start());
    } catch (error) {
      this.listeners.delete(listener);
      this.starting = undefined;
      throw error;
    }
    return () => this.listeners.delete(listener);
  }

  /** Stops reading and tells every listener; what the gateway calls before closing HTTP. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const listener of [...this.listeners]) listener.onClose();
    this.listeners.clear();
    const consumer = await this.starting?.catch(() => undefined);
    await consumer?.stop();
  }

  private async start(): Promise<Consumer> {
    const { log, topic, groupId, logger } = this.options;
    await log.ensureTopics([{ name: topic }]);
    const consumer = await log.consume({
      groupId,
      topics: [topic],
      fromBeginning: false,
      ephemeral: true,
      maxBatchSize: 500,
      handler: async (batch) => {
        const first = batch.records[0];
        const last = batch.records.at(-1);
        if (first === undefined || last === undefined) return;
        const events: PositionedChangeEvent[] = [];
        for (const record of batch.records) {
          const event = changeEventOfRecord(record);
          if (event !== undefined)
            events.push({ partition: batch.partition, offset: BigInt(record.offset), event });
        }
        const run: ChangeEventRun = {
          partition: batch.partition,
          first: BigInt(first.offset),
          next: BigInt(last.offset) + 1n,
          events,
        };
        for (const listener of this.listeners) {
          try {
            listener.onRun(run);
          } catch (error) {
            logger.error({ err: error, topic }, 'a change event listener failed on a run');
          }
        }
      },
      onError: (error) =>
        logger.warn({ err: error, topic }, 'reading the change event feed failed; retrying'),
    });
    await consumer.ready;
    return consumer;
  }
}
