import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSecret, signedHeaders, signingKeyOf, webhookIdOf } from './signing.js';

/** The standardwebhooks package is the independent implementation the signatures are checked against. */
describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({
    entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
    category: 'TAG',
  });
  const now = Math.floor(Date.now() / 1000);

  it('signs id.timestamp.body with a generated whsec_ key as the package verifies it', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signedHeaders(signingKeyOf(secret, 'WHSEC'), 'msg_1', now, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('keys a caller-given secret by its UTF-8 bytes', () => {
    const secret = 'a secret the caller chose, ünïcode';
    const headers = signedHeaders(signingKeyOf(secret, 'RAW'), 'msg_2', now, body);
    expect(() =>
      new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(body, headers),
    ).not.toThrow();
    expect(() =>
      new Webhook(Buffer.from('another secret', 'utf8'), { format: 'raw' }).verify(body, headers),
    ).toThrow();
  });

  it('does not verify a body changed after signing', () => {
    const secret = generateSecret();
    const headers = signedHeaders(signingKeyOf(secret, 'WHSEC'), 'msg_3', now, body);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('derives the webhook id from the event id and the subscription: stable, distinct per subscription', () => {
    const a = webhookIdOf('event-1', 'urn:li:webhook:a');
    expect(webhookIdOf('event-1', 'urn:li:webhook:a')).toBe(a);
    expect(webhookIdOf('event-1', 'urn:li:webhook:b')).not.toBe(a);
    expect(webhookIdOf('event-2', 'urn:li:webhook:a')).not.toBe(a);
    expect(a).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
  });
});
