import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretCipher } from './secret-cipher.js';

const KEY = 'ENCRYPTION_KEY-for-tests';

/** The ecosystem's legacy form, built independently: AES-128-ECB, key = SHA-1(key)[0..16), PKCS#5, base64. */
function legacyEncrypt(plain: string, key: string): string {
  const aesKey = createHash('sha1').update(key, 'utf8').digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ecb', aesKey, null);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

describe('SecretCipher', () => {
  it('round-trips through the v2 (AES-256-GCM) form', () => {
    const cipher = new SecretCipher(KEY);
    const stored = cipher.encrypt('a secret ✓');
    expect(stored.startsWith('v2:')).toBe(true);
    // 12-byte IV + 12 bytes of UTF-8 plaintext + 16-byte tag.
    expect(Buffer.from(stored.slice(3), 'base64')).toHaveLength(12 + Buffer.byteLength('a secret ✓') + 16);
    expect(cipher.decrypt(stored)).toBe('a secret ✓');
  });

  it('uses a fresh IV for every encryption', () => {
    const cipher = new SecretCipher(KEY);
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('decrypts the legacy AES-128-ECB form', () => {
    const stored = legacyEncrypt('qwertyuiopasdfghjklzxcvbnmqwerty', KEY);
    expect(stored.startsWith('v2:')).toBe(false);
    expect(new SecretCipher(KEY).decrypt(stored)).toBe('qwertyuiopasdfghjklzxcvbnmqwerty');
  });

  it('refuses a v2 value encrypted with another key', () => {
    const stored = new SecretCipher('another key').encrypt('x');
    expect(() => new SecretCipher(KEY).decrypt(stored)).toThrow(/not encrypted with this key/);
  });

  it('refuses a tampered v2 value', () => {
    const stored = new SecretCipher(KEY).encrypt('hello world');
    const bytes = Buffer.from(stored.slice(3), 'base64');
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    expect(() => new SecretCipher(KEY).decrypt(`v2:${bytes.toString('base64')}`)).toThrow(Error);
  });

  it.each([
    ['not base64', 'this is not base64!'],
    ['v2 not base64', 'v2:***'],
    ['v2 too short', 'v2:AAAA'],
    ['legacy not block-sized', Buffer.from('short').toString('base64')],
    ['empty', ''],
  ])('throws a clear error on garbage (%s)', (_name, garbage) => {
    expect(() => new SecretCipher(KEY).decrypt(garbage)).toThrow(/^Cannot decrypt secret/);
  });
});
