import { createHash, createHmac, randomBytes } from 'node:crypto';

/** How a subscription's key reads: the caller's string as UTF-8 bytes, or `whsec_` + base64 of the key. */
export type SecretFormat = 'RAW' | 'WHSEC';

const WHSEC_PREFIX = 'whsec_';

/**
 * The Standard Webhooks headers of one delivery attempt: `webhook-id` (the same on every attempt of a
 * message), `webhook-timestamp` (seconds, this attempt's) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`). Kept here rather than taken from the
 * `standardwebhooks` package so the tests can verify with that package as an independent implementation;
 * it is these four lines of HMAC.
 */
export function signedHeaders(
  key: Buffer,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = createHmac('sha256', key)
    .update(`${webhookId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}

/** The HMAC key of a stored secret (after decryption). */
export function signingKeyOf(secret: string, format: SecretFormat): Buffer {
  return format === 'WHSEC'
    ? Buffer.from(secret.slice(WHSEC_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** A new random signing secret in the Standard Webhooks form (`whsec_` + base64 of 32 random bytes). */
export function generateSecret(): string {
  return WHSEC_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The `webhook-id` of a change event delivered to a subscription: derived from the event's id and the
 * subscription, so a retry, a redelivery after a restart or a replay carries the same id (receivers
 * deduplicate on it) while two subscriptions never share one.
 */
export function webhookIdOf(eventId: string, subscriptionUrn: string): string {
  const digest = createHash('sha256')
    .update(`${eventId}\u0000${subscriptionUrn}`, 'utf8')
    .digest('base64url');
  return `msg_${digest.slice(0, 32)}`;
}
