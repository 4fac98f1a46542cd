import { describe, expect, it } from 'vitest';
import { SecretCipher } from '@catalog/auth';
import {
  corpUserIdOf,
  corpUserUrn,
  inviteTokenUrn,
  resetTokenMatches,
  sha256Base64,
  storedResetToken,
} from './identity-tokens.js';

describe('invite token urn', () => {
  it('is the standard base64 of SHA-256 over the token (FIPS 180-2 "abc" vector)', () => {
    expect(sha256Base64('abc')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
    expect(inviteTokenUrn('abc')).toBe('urn:li:inviteToken:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
  });

  it('does not contain the token', () => {
    const token = 'abcdefghijklmnopqrstuvwxyzabcdef';
    expect(inviteTokenUrn(token)).not.toContain(token);
  });
});

describe('corpuser urns', () => {
  it('round-trips an id', () => {
    expect(corpUserUrn('jane@example.com')).toBe('urn:li:corpuser:jane@example.com');
    expect(corpUserIdOf('urn:li:corpuser:jane@example.com')).toBe('jane@example.com');
  });

  it('refuses other entities and an empty id', () => {
    expect(corpUserIdOf('urn:li:corpGroup:admins')).toBeUndefined();
    expect(corpUserIdOf('urn:li:corpuser:')).toBeUndefined();
  });
});

describe('reset token storage', () => {
  const cipher = new SecretCipher('test-key');
  const token = 'qwertyuiopasdfghjklzxcvbnmqwerty';

  it('stores a digest, never the token', () => {
    const stored = storedResetToken(token);
    expect(stored).toBe(`sha256:${sha256Base64(token)}`);
    expect(stored).not.toContain(token);
  });

  it('matches only the same token', () => {
    expect(resetTokenMatches(storedResetToken(token), token, cipher)).toBe(true);
    expect(resetTokenMatches(storedResetToken(token), `${token}x`, cipher)).toBe(false);
    expect(resetTokenMatches(storedResetToken(token), '', cipher)).toBe(false);
  });

  it('reads the ecosystem encrypted form from a shared database', () => {
    expect(resetTokenMatches(cipher.encrypt(token), token, cipher)).toBe(true);
    expect(resetTokenMatches(cipher.encrypt(token), 'other', cipher)).toBe(false);
  });

  it('treats a value it cannot read as a mismatch', () => {
    expect(resetTokenMatches('not encrypted at all', token, cipher)).toBe(false);
    expect(resetTokenMatches(new SecretCipher('other-key').encrypt(token), token, cipher)).toBe(false);
  });
});
