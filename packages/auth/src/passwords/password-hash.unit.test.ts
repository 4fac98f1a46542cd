import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretCipher } from '../secrets/secret-cipher.js';
import { hashPassword, randomLowercaseToken, verifyPassword } from './password-hash.js';

const cipher = new SecretCipher('password-test-key');

/** A record as the ecosystem stores it: encrypted base64 salt, base64(SHA-256(salt ‖ password)). */
function legacyRecord(password: string, encryptWith = cipher): { salt: string; hashedPassword: string } {
  const salt = randomBytes(16);
  return {
    salt: encryptWith.encrypt(salt.toString('base64')),
    hashedPassword: createHash('sha256').update(salt).update(password, 'utf8').digest('base64'),
  };
}

describe('hashPassword / verifyPassword', () => {
  it('stores scrypt parameters with the key and verifies the same password', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.hashedPassword).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(stored.hashedPassword.split('$')[4] ?? '', 'base64')).toHaveLength(64);
    expect(Buffer.from(stored.salt, 'base64')).toHaveLength(16);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
  });

  it('salts every hash differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hashedPassword).not.toBe(b.hashedPassword);
  });

  it('returns false for a wrong password', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword(stored, 'correct horsf')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('returns false, never throws, for a damaged scrypt record', async () => {
    const stored = await hashPassword('pw');
    expect(await verifyPassword({ ...stored, hashedPassword: 'scrypt$banana$8$1$AAAA' }, 'pw')).toBe(false);
    expect(await verifyPassword({ ...stored, hashedPassword: `scrypt$${2 ** 24}$8$1$AAAA` }, 'pw')).toBe(
      false,
    );
    expect(await verifyPassword({ ...stored, hashedPassword: 'scrypt$16384$8$1$' }, 'pw')).toBe(false);
  });

  it('verifies the legacy form with the cipher', async () => {
    const stored = legacyRecord('datahub-legacy');
    expect(await verifyPassword(stored, 'datahub-legacy', cipher)).toBe(true);
    expect(await verifyPassword(stored, 'datahub-legacY', cipher)).toBe(false);
  });

  it('refuses the legacy form without a cipher or with an undecryptable salt', async () => {
    const stored = legacyRecord('pw');
    expect(await verifyPassword(stored, 'pw')).toBe(false);
    expect(await verifyPassword(stored, 'pw', new SecretCipher('wrong key'))).toBe(false);
    expect(await verifyPassword({ ...stored, salt: 'garbage!' }, 'pw', cipher)).toBe(false);
  });
});

describe('randomLowercaseToken', () => {
  it('makes 32 letters a-z by default', () => {
    expect(randomLowercaseToken()).toMatch(/^[a-z]{32}$/);
    expect(randomLowercaseToken(5)).toMatch(/^[a-z]{5}$/);
  });

  it('differs between calls and uses the whole alphabet', () => {
    expect(randomLowercaseToken()).not.toBe(randomLowercaseToken());
    const seen = new Set(randomLowercaseToken(4000));
    expect(seen.size).toBe(26);
  });

  it('refuses a non-positive length', () => {
    expect(() => randomLowercaseToken(0)).toThrow(RangeError);
  });
});
