import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthSettings } from '../auth-settings.js';
import { authenticated, refused, type AuthenticationOutcome } from './authenticator.js';

/**
 * The system client: `Authorization: Basic <id>:<secret>` with the credentials in plain text, as the
 * ecosystem's clients send them. The RFC 7617 base64 form of the same pair is accepted too (a plain
 * pair always holds a ':', which base64 never does, so the two cannot be confused).
 */
export class SystemClientAuthenticator {
  readonly #id: string;
  readonly #expected: Buffer;

  constructor(settings: Pick<AuthSettings, 'systemClientId' | 'systemClientSecret'>) {
    this.#id = settings.systemClientId;
    this.#expected = digest(`${settings.systemClientId}:${settings.systemClientSecret}`);
  }

  authenticate(credentials: string): AuthenticationOutcome {
    const pair = credentials.includes(':') ? credentials : decodeBase64Pair(credentials);
    if (pair === undefined) return refused('Basic credentials are neither <id>:<secret> nor its base64 form');
    // Comparing fixed-length digests keeps the time spent independent of where, or whether, lengths differ.
    if (!timingSafeEqual(digest(pair), this.#expected)) {
      return refused('Basic credentials do not match the system client');
    }
    return authenticated(this.#id, 'system-client', true);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function decodeBase64Pair(credentials: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  return decoded.includes(':') ? decoded : undefined;
}
