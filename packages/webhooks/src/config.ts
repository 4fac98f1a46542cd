import { defaultTopicNames, type TopicNames } from '@catalog/events';
import type { EnvReader } from '@catalog/runtime';
import { DEFAULT_DELIVERY_SETTINGS, type WebhookDeliverySettings } from './settings.js';

export interface WebhookDispatcherSection {
  /** WEBHOOK_DISPATCHER_ENABLED (default true): whether this process delivers webhooks. */
  readonly enabled: boolean;
  /** WEBHOOK_DISPATCHER_GROUP_ID: the group reading the platform-event topic. */
  readonly groupId: string;
  readonly delivery: WebhookDeliverySettings;
}

/**
 * The dispatcher's variables: WEBHOOK_DISPATCHER_ENABLED, WEBHOOK_DISPATCHER_GROUP_ID,
 * WEBHOOK_TIMEOUT_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_BACKOFF_BASE_MS, WEBHOOK_BACKOFF_MAX_MS,
 * WEBHOOK_RETRY_AFTER_MAX_MS, WEBHOOK_SUSPEND_AFTER, WEBHOOK_MAX_CONCURRENT, WEBHOOK_REFRESH_MS,
 * WEBHOOK_STATE_FLUSH_MS, WEBHOOK_MAX_DEAD_LETTERS and WEBHOOK_ALLOW_PRIVATE_DESTINATIONS (loopback and
 * private addresses as destinations; link-local and metadata addresses are refused whatever it says).
 * `allowPrivateByDefault`: the all-in-one catalog, a single-host development default, allows them; the
 * distributed dispatcher does not.
 */
export function readWebhookDispatcherSection(
  env: EnvReader,
  topics: TopicNames,
  allowPrivateByDefault: boolean,
): WebhookDispatcherSection {
  const d = DEFAULT_DELIVERY_SETTINGS;
  const group =
    topics.platformEvent === defaultTopicNames.platformEvent
      ? 'webhook-dispatcher'
      : `webhook-dispatcher-${topics.platformEvent}`;
  return {
    enabled: env.bool('WEBHOOK_DISPATCHER_ENABLED', true),
    groupId: env.string('WEBHOOK_DISPATCHER_GROUP_ID', group),
    delivery: {
      timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', d.timeoutMs, { min: 100, max: 300_000 }),
      maxAttempts: env.int('WEBHOOK_MAX_ATTEMPTS', d.maxAttempts, { min: 1, max: 100 }),
      backoffBaseMs: env.int('WEBHOOK_BACKOFF_BASE_MS', d.backoffBaseMs, { min: 1, max: 3_600_000 }),
      backoffMaxMs: env.int('WEBHOOK_BACKOFF_MAX_MS', d.backoffMaxMs, { min: 1, max: 86_400_000 }),
      retryAfterMaxMs: env.int('WEBHOOK_RETRY_AFTER_MAX_MS', d.retryAfterMaxMs, { min: 0, max: 86_400_000 }),
      suspendAfter: env.int('WEBHOOK_SUSPEND_AFTER', d.suspendAfter, { min: 1, max: 100_000 }),
      maxConcurrent: env.int('WEBHOOK_MAX_CONCURRENT', d.maxConcurrent, { min: 1, max: 10_000 }),
      allowPrivate: env.bool('WEBHOOK_ALLOW_PRIVATE_DESTINATIONS', allowPrivateByDefault),
      refreshMs: env.int('WEBHOOK_REFRESH_MS', d.refreshMs, { min: 50, max: 600_000 }),
      stateFlushMs: env.int('WEBHOOK_STATE_FLUSH_MS', d.stateFlushMs, { min: 0, max: 600_000 }),
      maxDeadLetters: env.int('WEBHOOK_MAX_DEAD_LETTERS', d.maxDeadLetters, { min: 1, max: 10_000 }),
    },
  };
}
