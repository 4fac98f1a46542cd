import { decodePlatformEvent, type EventLog, type LogRecord } from '@catalog/events';
import type { Logger } from '@catalog/runtime';
import { deliverOnce, type DeliveryOutcome } from './deliver.js';
import { parseDestination } from './destination.js';
import { backoffMs, type WebhookDeliverySettings } from './settings.js';
import { webhookIdOf } from './signing.js';
import {
  matchesFilter,
  type DeadLetter,
  type DeliveryState,
  type DispatchSubscription,
  type WebhookSource,
} from './subscription.js';

/** The record header the change-event producer puts its event id in. */
const EVENT_ID_HEADER = 'eventId';
const ENTITY_CHANGE_EVENT = 'entityChangeEvent';
/** Events about webhook subscriptions themselves are never delivered (their state changes all the time). */
const OWN_ENTITY_TYPE = 'webhook';
const READ_BATCH = 100;
/** How long an idle worker sleeps when nothing wakes it. */
const IDLE_MS = 1_000;

export interface WorkerDeps {
  readonly log: EventLog;
  readonly topic: string;
  readonly source: WebhookSource;
  readonly settings: WebhookDeliverySettings;
  readonly logger: Logger;
  /** Bounds the HTTP requests in flight across every worker. */
  readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  readonly now: () => number;
  readonly random: () => number;
  /** Told of an outage a worker waits out (the log, the store, the authorizer) and of its end, and of each dead letter. */
  readonly health: WorkerHealth;
}

export interface WorkerHealth {
  outage(urn: string, reason: string | undefined): void;
  deadLettered(): void;
}

interface Delivery {
  readonly webhookId: string;
  readonly entityUrn: string;
  readonly body: string;
}

/**
 * Delivers one subscription's events: reads the platform-event topic from the subscription's own
 * positions (one per partition), in offset order, one event at a time, so one entity's events arrive
 * in the log's order; retries an event with backoff until it is delivered or dead-lettered before the
 * next one; writes its positions after the events they pass were delivered (at-least-once: a restart
 * delivers again at most what the last write had not recorded, with the same webhook ids). A slow or
 * failing destination holds up only this worker.
 */
export class SubscriptionWorker {
  private sub: DispatchSubscription;
  private state: DeliveryState;
  private dirty = false;
  private lastFlush = 0;
  private stopped = false;
  /** A wake-up came while the worker was not asleep. */
  private woken = false;
  /** Aborts the request in flight when the worker stops (it is delivered again by the next run). */
  private readonly stopping = new AbortController();
  private discard = false;
  /** The sleeps in progress, and whether a wake-up (not only stop) ends each. */
  private readonly sleepers = new Map<() => void, boolean>();
  private readonly done: Promise<void>;

  constructor(
    subscription: DispatchSubscription,
    private readonly deps: WorkerDeps,
  ) {
    this.sub = subscription;
    this.state = subscription.state;
    this.done = this.run();
  }

  get urn(): string {
    return this.sub.urn;
  }

  /** A newer reading of the subscription (its filter, url, status, replay requests); state stays the worker's. */
  update(subscription: DispatchSubscription): void {
    this.sub = subscription;
    this.wake();
  }

  wake(): void {
    let woke = false;
    for (const [done, wakeable] of this.sleepers)
      if (wakeable || this.stopped) {
        done();
        woke = true;
      }
    // Not asleep (reading, delivering, writing state): the next idle sleep returns at once, so news
    // that came meanwhile is read without waiting out the idle pause.
    if (!woke) this.woken = true;
  }

  /**
   * Stops after the event in hand (its retries cut short) and writes the state reached, unless the
   * subscription is gone (`keepState` false: a deleted subscription's state is not written back).
   */
  async stop(keepState = true): Promise<void> {
    if (!keepState) this.dirty = false;
    this.discard = !keepState;
    this.stopped = true;
    this.stopping.abort();
    this.wake();
    await this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.step();
        this.deps.health.outage(this.sub.urn, undefined);
      } catch (error) {
        // An outage of the log, the store or the authorizer: nothing moved; try again after a pause.
        this.deps.health.outage(this.sub.urn, error instanceof Error ? error.message : String(error));
        this.deps.logger.warn({ err: error, webhook: this.sub.urn }, 'webhook delivery paused by an error');
        await this.sleep(IDLE_MS, true);
      }
    }
    if (this.discard) return;
    await this.flush(true).catch((error: unknown) =>
      this.deps.logger.error({ err: error, webhook: this.sub.urn }, 'webhook delivery state not written'),
    );
  }

  private async step(): Promise<void> {
    this.liftSuspensionWhenResumed();
    if (!this.active()) {
      await this.flush(true);
      await this.idle();
      return;
    }
    await this.replayRequested();
    const from = await this.positions();
    const records = await this.deps.log.read(this.deps.topic, from, { maxRecords: READ_BATCH });
    if (records.length === 0) {
      await this.flush(true);
      await this.idle();
      return;
    }
    for (const record of records) {
      if (this.stopped || !this.active()) break;
      const delivery = await this.deliveryOf(record);
      if (delivery !== undefined) {
        const delivered = await this.deliverWithRetries(delivery);
        // Stopped in the middle of retries: the event was not settled; the next run delivers it again.
        if (delivered === 'stopped') break;
      }
      this.move(record);
      await this.flush(false);
    }
  }

  private active(): boolean {
    return this.sub.status === 'ACTIVE' && this.state.suspendedAt === null;
  }

  private liftSuspensionWhenResumed(): void {
    const { suspendedAt } = this.state;
    if (suspendedAt === null || this.sub.resumedAt === null || this.sub.resumedAt <= suspendedAt) return;
    this.change({ suspendedAt: null, suspendedReason: null, consecutiveDeadLetters: 0 });
  }

  /** Every partition's next offset; a partition without one starts at the subscription's creation. */
  private async positions(): Promise<Map<number, string>> {
    const offsets = await this.deps.log.offsets(this.deps.topic);
    const missing = offsets.filter((p) => this.state.positions[String(p.partition)] === undefined);
    if (missing.length > 0) {
      const fromCreation = await this.deps.log.offsetsForTime(this.deps.topic, this.sub.createdAt);
      const positions = { ...this.state.positions };
      for (const p of missing) positions[String(p.partition)] = fromCreation.get(p.partition) ?? p.end;
      this.change({ positions });
    }
    return new Map(offsets.map((p) => [p.partition, this.state.positions[String(p.partition)]!]));
  }

  private move(record: LogRecord): void {
    const positions = {
      ...this.state.positions,
      [String(record.partition)]: (BigInt(record.offset) + 1n).toString(),
    };
    this.change({ positions });
  }

  /** The delivery a record makes for this subscription, or undefined when it is not one for it. */
  private async deliveryOf(record: LogRecord): Promise<Delivery | undefined> {
    let text: string;
    let event: { entityUrn?: unknown; entityType?: unknown; category?: unknown; operation?: unknown };
    try {
      const platformEvent = decodePlatformEvent(record.value);
      if (platformEvent.name !== ENTITY_CHANGE_EVENT) return undefined;
      text = platformEvent.payload.value.toString('utf8');
      event = JSON.parse(text) as typeof event;
    } catch (error) {
      this.deps.logger.warn(
        { err: error, partition: record.partition, offset: record.offset },
        'platform event not readable; not a webhook delivery',
      );
      return undefined;
    }
    const { entityUrn, entityType, category, operation } = event;
    if (
      typeof entityUrn !== 'string' ||
      typeof entityType !== 'string' ||
      typeof category !== 'string' ||
      typeof operation !== 'string' ||
      entityType === OWN_ENTITY_TYPE
    )
      return undefined;
    if (!matchesFilter(this.sub.filter, { entityUrn, entityType, category, operation })) return undefined;
    if (!(await this.deps.source.mayRead(this.sub.creator, entityUrn))) return undefined;
    const eventId = record.headers[EVENT_ID_HEADER] ?? `${record.topic}-${record.partition}-${record.offset}`;
    return { webhookId: webhookIdOf(eventId, this.sub.urn), entityUrn, body: text };
  }

  /** Delivers until it succeeds, fails for good or runs out of attempts (then a dead letter). */
  private async deliverWithRetries(delivery: Delivery): Promise<'delivered' | 'dead-lettered' | 'stopped'> {
    const { settings } = this.deps;
    let last: DeliveryOutcome | undefined;
    let attempt = 0;
    while (attempt < settings.maxAttempts) {
      if (this.stopped) return 'stopped';
      attempt += 1;
      last = await this.attempt(delivery);
      // Cut short by stop: not a failure of the destination; the next run delivers it again.
      if (!last.ok && this.stopped) return 'stopped';
      if (last.ok) {
        this.change({ consecutiveDeadLetters: 0, lastDeliveredAt: this.deps.now(), lastError: null });
        return 'delivered';
      }
      if (!last.retriable || attempt >= settings.maxAttempts) break;
      const pause = Math.max(
        backoffMs(settings, attempt, this.deps.random),
        Math.min(last.retryAfterMs ?? 0, settings.retryAfterMaxMs),
      );
      this.change({ lastError: last.error });
      await this.sleep(pause);
    }
    this.deadLetter(delivery, last && !last.ok ? last.error : 'not delivered', attempt);
    return 'dead-lettered';
  }

  private attempt(delivery: Delivery): Promise<DeliveryOutcome> {
    let url: URL;
    try {
      url = parseDestination(this.sub.url);
    } catch (error) {
      return Promise.resolve({ ok: false, retriable: false, error: (error as Error).message });
    }
    return this.deps.limit(() =>
      deliverOnce({
        url,
        key: this.sub.key,
        webhookId: delivery.webhookId,
        body: delivery.body,
        timeoutMs: this.deps.settings.timeoutMs,
        allowPrivate: this.deps.settings.allowPrivate,
        now: this.deps.now,
        signal: this.stopping.signal,
      }),
    );
  }

  private deadLetter(delivery: Delivery, error: string, attempts: number): void {
    const { settings, now, logger } = this.deps;
    const letter: DeadLetter = { ...delivery, error, attempts, time: now() };
    const deadLetters = [...this.state.deadLetters.filter((d) => d.webhookId !== delivery.webhookId), letter];
    const consecutive = this.state.consecutiveDeadLetters + 1;
    const suspend = consecutive >= settings.suspendAfter;
    this.deps.health.deadLettered();
    logger.warn(
      { webhook: this.sub.urn, webhookId: delivery.webhookId, error, attempts, suspend },
      'webhook delivery dead-lettered',
    );
    this.change({
      deadLetters: deadLetters.slice(-settings.maxDeadLetters),
      consecutiveDeadLetters: consecutive,
      lastError: error,
      ...(suspend
        ? {
            suspendedAt: now(),
            suspendedReason: `${consecutive} consecutive deliveries failed; last: ${error}`,
          }
        : {}),
    });
  }

  /** Replay requests newer than the last handled: their dead letters leave the list and are delivered again. */
  private async replayRequested(): Promise<void> {
    const pending = this.sub.replay
      .filter((r) => r.time > this.state.replayedThrough)
      .sort((a, b) => a.time - b.time);
    for (const request of pending) {
      const wanted = new Set(request.webhookIds);
      const chosen = this.state.deadLetters.filter((d) => wanted.size === 0 || wanted.has(d.webhookId));
      const chosenIds = new Set(chosen.map((d) => d.webhookId));
      this.change({
        deadLetters: this.state.deadLetters.filter((d) => !chosenIds.has(d.webhookId)),
        replayedThrough: request.time,
      });
      for (const letter of chosen) {
        if (this.stopped || !this.active()) {
          // Not replayed yet: back on the list for a later request.
          this.change({ deadLetters: [...this.state.deadLetters, letter] });
          continue;
        }
        const outcome = await this.deliverWithRetries(letter);
        if (outcome === 'stopped') this.change({ deadLetters: [...this.state.deadLetters, letter] });
      }
      await this.flush(true);
    }
  }

  private change(patch: Partial<DeliveryState>): void {
    this.state = { ...this.state, ...patch };
    this.dirty = true;
  }

  private async flush(force: boolean): Promise<void> {
    if (!this.dirty) return;
    const now = this.deps.now();
    if (!force && now - this.lastFlush < this.deps.settings.stateFlushMs) return;
    const state = this.state;
    this.dirty = false;
    this.lastFlush = now;
    try {
      await this.deps.source.saveState(this.sub.urn, state);
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }

  /** Sleeps up to IDLE_MS; new events, a changed subscription or stop end it early. */
  private idle(): Promise<void> {
    return this.sleep(IDLE_MS, true);
  }

  /** Sleeps up to `ms`; stop ends it early, and so does a wake-up when `wakeable`. */
  private sleep(ms: number, wakeable = false): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (wakeable && this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.set(done, wakeable);
    });
  }
}
