import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretCipher } from '@catalog/auth';

export const INVITE_TOKEN_URN_PREFIX = 'urn:li:inviteToken:';
export const CORP_USER_URN_PREFIX = 'urn:li:corpuser:';

/** The ecosystem's hash of a token: standard base64 of SHA-256 over its UTF-8 bytes (may hold + / =). */
export function sha256Base64(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64');
}

/** An invite token's entity: only the hash is in the urn, so the urn does not give the token away. */
export function inviteTokenUrn(token: string): string {
  return INVITE_TOKEN_URN_PREFIX + sha256Base64(token);
}

export function corpUserUrn(userId: string): string {
  return CORP_USER_URN_PREFIX + userId;
}

/** The id of a corpuser urn, or undefined when it is not one (or has an empty id). */
export function corpUserIdOf(urn: string): string | undefined {
  if (!urn.startsWith(CORP_USER_URN_PREFIX)) return undefined;
  const id = urn.slice(CORP_USER_URN_PREFIX.length);
  return id.length > 0 ? id : undefined;
}

/**
 * How a password reset token is kept in `corpUserCredentials.passwordResetToken`: a SHA-256 digest,
 * not the ecosystem's reversible encryption. Nothing needs the token back after it was handed out, so a
 * leaked database (or encryption key) does not hand out working reset links.
 */
const RESET_DIGEST_PREFIX = 'sha256:';

export function storedResetToken(token: string): string {
  return RESET_DIGEST_PREFIX + sha256Base64(token);
}

/**
 * Whether a presented reset token is the stored one. Reads our digest form and, for a database shared
 * with another deployment of the ecosystem, its encrypted form. Compared in constant time.
 */
export function resetTokenMatches(stored: string, presented: string, cipher: SecretCipher): boolean {
  if (stored.startsWith(RESET_DIGEST_PREFIX)) return sameText(stored, storedResetToken(presented));
  try {
    return sameText(cipher.decrypt(stored), presented);
  } catch {
    return false;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
