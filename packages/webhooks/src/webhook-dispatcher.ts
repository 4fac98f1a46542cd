import type { Consumer, EventLog, TopicNames } from '@catalog/events';
import type { ConsumerFailureState, Logger } from '@catalog/runtime';
import pLimit from 'p-limit';
import type { WebhookDeliverySettings } from './settings.js';
import type { DispatchSubscription, WebhookSource } from './subscription.js';
import { SubscriptionWorker } from './subscription-worker.js';

export interface WebhookDispatcherDeps {
  readonly log: EventLog;
  readonly topics: TopicNames;
  readonly source: WebhookSource;
  readonly settings: WebhookDeliverySettings;
  readonly logger: Logger;
  /** The group reading the platform-event topic to learn that new events are there. */
  readonly groupId: string;
  readonly now?: () => number;
  readonly random?: () => number;
}

export interface WebhookDispatcher {
  readonly ready: Promise<void>;
  /** The subscriptions being delivered now (for health and tests). */
  subscriptions(): readonly string[];
  /** Retrying while a worker waits out an outage (readiness fails naming it); dead letters of this process. */
  failures(): ConsumerFailureState;
  stop(): Promise<void>;
}

/**
 * The webhook dispatcher: one worker per subscription (see SubscriptionWorker), each reading the
 * platform-event topic from its own stored positions, so a slow or failing destination holds up only
 * its own subscription and never the write path (the dispatcher only reads the topic). Its consumer
 * group on the topic wakes the workers when new events arrive; the subscriptions are read again every
 * `refreshMs` (new, changed, paused, deleted, replay requests).
 */
export async function startWebhookDispatcher(deps: WebhookDispatcherDeps): Promise<WebhookDispatcher> {
  const { log, topics, source, settings, logger } = deps;
  await log.ensureTopics([{ name: topics.platformEvent }]);
  const limit = pLimit(settings.maxConcurrent);
  const outages = new Map<string, { since: number; reason: string }>();
  let deadLettered = 0;
  const now = deps.now ?? Date.now;
  const health = {
    outage: (urn: string, reason: string | undefined) => {
      if (reason === undefined) outages.delete(urn);
      else if (!outages.has(urn)) outages.set(urn, { since: now(), reason });
    },
    deadLettered: () => {
      deadLettered += 1;
    },
  };
  const workerDeps = {
    log,
    topic: topics.platformEvent,
    source,
    settings,
    logger,
    limit: <T>(task: () => Promise<T>) => limit(task),
    now,
    random: deps.random ?? Math.random,
    health,
  };
  const workers = new Map<string, SubscriptionWorker>();
  let stopped = false;

  const reconcile = async (subscriptions: readonly DispatchSubscription[]) => {
    const seen = new Set<string>();
    for (const sub of subscriptions) {
      seen.add(sub.urn);
      const worker = workers.get(sub.urn);
      if (worker) worker.update(sub);
      else workers.set(sub.urn, new SubscriptionWorker(sub, workerDeps));
    }
    for (const [urn, worker] of workers) {
      if (seen.has(urn)) continue;
      workers.delete(urn);
      outages.delete(urn);
      await worker.stop(false);
    }
  };

  const refresh = async () => {
    try {
      await reconcile(await source.subscriptions());
    } catch (error) {
      logger.warn({ err: error }, 'webhook subscriptions could not be read; trying again');
    }
  };
  await refresh();
  let refreshing = Promise.resolve();
  const timer = setInterval(() => {
    refreshing = refreshing.then(() => (stopped ? undefined : refresh()));
  }, settings.refreshMs);
  timer.unref();

  const consumer: Consumer = await log.consume({
    groupId: deps.groupId,
    topics: [topics.platformEvent],
    handler: async () => {
      for (const worker of workers.values()) worker.wake();
    },
    onError: (error, where) => logger.error({ err: error, ...where }, 'webhook wake-up batch failed'),
  });

  return {
    ready: consumer.ready,
    subscriptions: () => [...workers.keys()],
    failures: () => {
      const [first] = outages.values();
      return { deadLettered, ...(first === undefined ? {} : { retrying: first }) };
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await refreshing;
      await consumer.stop();
      await Promise.all([...workers.values()].map((w) => w.stop()));
      workers.clear();
    },
  };
}
