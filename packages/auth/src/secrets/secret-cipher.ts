import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Marks values written by this cipher; values without it are the ecosystem's legacy form. */
const V2_PREFIX = 'v2:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Encrypts small secrets at rest (password salts, reset and invite tokens).
 *
 * Writes AES-256-GCM (`v2:` + base64(IV ‖ ciphertext ‖ tag)). Also reads the legacy form other
 * deployments of the ecosystem stored: AES-128-ECB with PKCS#5 padding, keyed by the first 16 bytes
 * of SHA-1 of the key string, base64 without a prefix — so a shared database keeps working.
 */
export class SecretCipher {
  readonly #gcmKey: Buffer;
  readonly #legacyKey: Buffer;

  constructor(key: string) {
    if (key.length === 0) throw new Error('SecretCipher needs a non-empty key');
    this.#gcmKey = createHash('sha256').update(key, 'utf8').digest();
    this.#legacyKey = createHash('sha1').update(key, 'utf8').digest().subarray(0, 16);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#gcmKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return V2_PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
  }

  /** Throws when the value is not something this key encrypted (the message never holds the value). */
  decrypt(stored: string): string {
    return stored.startsWith(V2_PREFIX)
      ? this.#decryptV2(stored.slice(V2_PREFIX.length))
      : this.#decryptLegacy(stored);
  }

  #decryptV2(encoded: string): string {
    const bytes = decodeBase64(encoded, 'v2');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('Cannot decrypt secret: v2 value is too short');
    const iv = bytes.subarray(0, IV_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#gcmKey, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('Cannot decrypt secret: v2 value was not encrypted with this key or was altered');
    }
  }

  #decryptLegacy(encoded: string): string {
    const bytes = decodeBase64(encoded, 'legacy');
    if (bytes.length === 0 || bytes.length % 16 !== 0) {
      throw new Error('Cannot decrypt secret: legacy value is not a whole number of AES blocks');
    }
    try {
      const decipher = createDecipheriv('aes-128-ecb', this.#legacyKey, null);
      return Buffer.concat([decipher.update(bytes), decipher.final()]).toString('utf8');
    } catch {
      // ECB has no integrity check: a wrong key shows up only as bad padding (most of the time).
      throw new Error('Cannot decrypt secret: legacy value was not encrypted with this key');
    }
  }
}

function decodeBase64(encoded: string, form: string): Buffer {
  // Buffer.from silently skips invalid characters; garbage must be an error, not a wrong plaintext.
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
    throw new Error(`Cannot decrypt secret: ${form} value is not base64`);
  }
  return Buffer.from(encoded, 'base64');
}
