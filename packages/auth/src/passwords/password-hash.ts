import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { SecretCipher } from '../secrets/secret-cipher.js';

/** The `salt` and `hashedPassword` fields of a user's `corpUserCredentials` aspect. */
export interface StoredCredentials {
  readonly salt: string;
  readonly hashedPassword: string;
}

const SCRYPT_PREFIX = 'scrypt';
/** 2^15: about 32 MiB and tens of milliseconds per hash, costly for an offline guesser. */
const SCRYPT_N = 2 ** 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const KEY_BYTES = 64;
const SALT_BYTES = 16;
/** Ceilings on what a stored record may ask for, so a forged record cannot make a login exhaust memory. */
const MAX_N = 2 ** 17;
const MAX_R = 16;
const MAX_P = 4;

/** Hashes a new password with scrypt and a fresh random salt. */
export async function hashPassword(password: string): Promise<StoredCredentials> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptKey(password, salt, { N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P });
  return {
    salt: salt.toString('base64'),
    hashedPassword: `${SCRYPT_PREFIX}$${SCRYPT_N}$${SCRYPT_R}$${SCRYPT_P}$${key.toString('base64')}`,
  };
}

/**
 * Whether `password` matches the stored credentials. Reads this package's scrypt form and the
 * ecosystem's legacy form (encrypted base64 salt, hash = base64(SHA-256(salt ‖ password))), which needs
 * the cipher. Any record it cannot read is a mismatch, never an exception.
 */
export async function verifyPassword(
  stored: StoredCredentials,
  password: string,
  cipher?: SecretCipher,
): Promise<boolean> {
  if (stored.hashedPassword.startsWith(`${SCRYPT_PREFIX}$`)) return verifyScrypt(stored, password);
  return verifyLegacy(stored, password, cipher);
}

async function verifyScrypt(stored: StoredCredentials, password: string): Promise<boolean> {
  const parts = stored.hashedPassword.split('$');
  if (parts.length !== 5) return false;
  const [, n, r, p, encodedKey] = parts;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!validScryptParams(params) || encodedKey === undefined) return false;
  const expected = Buffer.from(encodedKey, 'base64');
  if (expected.length === 0) return false;
  const salt = Buffer.from(stored.salt, 'base64');
  try {
    const actual = await scryptKey(password, salt, params, expected.length);
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

function validScryptParams(params: { N: number; r: number; p: number }): boolean {
  const { N, r, p } = params;
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  return (
    powerOfTwo &&
    N <= MAX_N &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= MAX_R &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= MAX_P
  );
}

function verifyLegacy(
  stored: StoredCredentials,
  password: string,
  cipher: SecretCipher | undefined,
): boolean {
  if (cipher === undefined) return false;
  let salt: Buffer;
  try {
    salt = Buffer.from(cipher.decrypt(stored.salt), 'base64');
  } catch {
    return false;
  }
  const actual = createHash('sha256').update(salt).update(password, 'utf8').digest();
  const expected = Buffer.from(stored.hashedPassword, 'base64');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

function scryptKey(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  length = KEY_BYTES,
): Promise<Buffer> {
  // Node refuses N·r above its default 32 MiB memory cap; allow what the parameters need.
  const options: ScryptOptions = {
    ...params,
    maxmem: 128 * params.N * params.r * (params.p + 1) + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 26 a byte can hold: bytes at or above it are redrawn, so no letter is favoured. */
const UNBIASED_LIMIT = 256 - (256 % LOWERCASE.length);

/** A random token of lower-case letters a–z (reset and invite tokens), from the system CSPRNG. */
export function randomLowercaseToken(length = 32): string {
  if (!Number.isInteger(length) || length < 1)
    throw new RangeError('token length must be a positive integer');
  let token = '';
  while (token.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      token += LOWERCASE[byte % LOWERCASE.length];
      if (token.length === length) break;
    }
  }
  return token;
}
