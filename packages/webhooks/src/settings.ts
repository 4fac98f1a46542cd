/** How the dispatcher delivers (WEBHOOK_* variables; see config.ts). */
export interface WebhookDeliverySettings {
  /** One attempt's deadline (connect, send and the answer's status line). */
  readonly timeoutMs: number;
  /** Attempts of one event before it is dead-lettered. */
  readonly maxAttempts: number;
  /** The first retry's pause; each later one doubles, with jitter, up to backoffMaxMs. */
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  /** The longest Retry-After honoured; a longer one is cut to this. */
  readonly retryAfterMaxMs: number;
  /** Consecutive dead letters after which a subscription is suspended. */
  readonly suspendAfter: number;
  /** HTTP requests in flight across all subscriptions. */
  readonly maxConcurrent: number;
  /** Whether loopback and private addresses may be destinations (link-local never). */
  readonly allowPrivate: boolean;
  /** How often subscriptions are read again (new, changed, paused, deleted ones, replay requests). */
  readonly refreshMs: number;
  /**
   * How often at most a subscription's delivery state is written while it delivers (and when it goes
   * idle): each write is a proposal on the write path, so this bounds what subscriptions add to it;
   * after a kill -9 at most this long's deliveries are made again (same webhook ids).
   */
  readonly stateFlushMs: number;
  /** Dead letters kept per subscription (the oldest go first). */
  readonly maxDeadLetters: number;
}

export const DEFAULT_DELIVERY_SETTINGS: WebhookDeliverySettings = {
  timeoutMs: 10_000,
  maxAttempts: 8,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60_000,
  retryAfterMaxMs: 300_000,
  suspendAfter: 10,
  maxConcurrent: 32,
  allowPrivate: false,
  refreshMs: 1_000,
  stateFlushMs: 2_000,
  maxDeadLetters: 100,
};

/** The pause before attempt `attempt + 1` (attempt ≥ 1): exponential, full jitter over its upper half. */
export function backoffMs(settings: WebhookDeliverySettings, attempt: number, random: () => number): number {
  const ceiling = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
