/**
 * Retries an idempotent admin call on errors kafkajs marks retriable. Right after topics are created a
 * KRaft node may answer for a moment with UNKNOWN_TOPIC_OR_PARTITION or NOT_LEADER_OR_FOLLOWER (the
 * partition's leadership is not yet applied on the broker), and several kafkajs admin calls bail on those
 * instead of retrying them.
 */
export async function retryRetriable<T>(call: () => Promise<T>, attempts = 8): Promise<T> {
  let delay = 200;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isRetriable(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 3_000);
    }
  }
}

/**
 * Only the error itself counts: when kafkajs's own retrier gave up it throws a non-retriable wrapper, and
 * retrying that again would multiply the wait on a broker that is really gone.
 */
export function isRetriable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retriable?: unknown }).retriable === true;
}
