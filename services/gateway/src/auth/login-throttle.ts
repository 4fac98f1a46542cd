import { LRUCache } from 'lru-cache';

/**
 * Slows password guessing at `POST /logIn` and `POST /auth/verifyNativeUserCredentials`, per user and
 * per client address. The policy (LOGIN_THROTTLE_POLICY):
 *
 * - Every failed password check counts against the user and against the address it came from.
 * - Past the free failures (5 for a user, 20 for an address), each further failure blocks that user
 *   or address for 1 s, then 2 s, 4 s, … doubling, never more than 15 minutes.
 * - While blocked, a login answers 429 with `Retry-After` (seconds) before the password is looked at,
 *   so an attempt made during a block neither counts nor extends it.
 * - A successful login clears the user's counter and remembers the address it came from (the last 4
 *   per user). The user's block never applies at a remembered address: an attacker guessing the root
 *   user's password elsewhere cannot lock root out where root logs in, only from addresses root has not
 *   logged in from in this process (and there for at most 15 minutes after the last failure).
 *   Addresses are not cleared by a success, or a guesser could reset theirs by logging into an account
 *   of their own between guesses.
 * - A counter with no failure for an hour starts again from zero.
 * - Calls by the system client (the ecosystem's frontend checking a browser's password) are limited
 *   per user only: their address is the frontend's, shared by every browser.
 *
 * State is per process, in LRU maps of at most 10,000 users and 10,000 addresses (a few MB): a spray
 * of names or addresses evicts the oldest entries instead of growing memory. Several gateways each
 * keep their own counts, so N instances behind a balancer allow up to N times the attempts.
 */
export interface LoginThrottlePolicy {
  readonly freeUserFailures: number;
  readonly freeAddressFailures: number;
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  /** A counter whose last failure is older than this starts again. */
  readonly forgetAfterMs: number;
  /** How many users and how many addresses are tracked at most. */
  readonly maxEntries: number;
  /** How many addresses of successful logins each user keeps. */
  readonly rememberedAddresses: number;
}

export const LOGIN_THROTTLE_POLICY: LoginThrottlePolicy = Object.freeze({
  freeUserFailures: 5,
  freeAddressFailures: 20,
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxEntries: 10_000,
  rememberedAddresses: 4,
});

/** Who tries: the user's urn, and the client address (absent for the system client's calls). */
export interface LoginAttempt {
  readonly user: string;
  readonly address?: string;
}

export type ThrottleDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly blocked: 'user' | 'address' };

interface FailureCount {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export class LoginThrottle {
  readonly #users: LRUCache<string, FailureCount>;
  readonly #addresses: LRUCache<string, FailureCount>;
  /** Per user, the addresses of its recent successful logins (oldest first). */
  readonly #trusted: LRUCache<string, string[]>;

  constructor(
    private readonly policy: LoginThrottlePolicy = LOGIN_THROTTLE_POLICY,
    private readonly now: () => number = Date.now,
  ) {
    this.#users = new LRUCache({ max: policy.maxEntries });
    this.#addresses = new LRUCache({ max: policy.maxEntries });
    this.#trusted = new LRUCache({ max: policy.maxEntries });
  }

  /** Whether an attempt may check a password now; when not, how long until it may. */
  check(attempt: LoginAttempt): ThrottleDecision {
    const now = this.now();
    const address =
      attempt.address === undefined ? undefined : this.#current(this.#addresses, attempt.address, now);
    if (address !== undefined && address.blockedUntil > now) return refusal(address, now, 'address');
    if (attempt.address !== undefined && this.#trusted.get(attempt.user)?.includes(attempt.address))
      return { allowed: true };
    const user = this.#current(this.#users, attempt.user, now);
    if (user !== undefined && user.blockedUntil > now) return refusal(user, now, 'user');
    return { allowed: true };
  }

  /** A wrong password (or any refused login): counts against the user and the address. */
  failed(attempt: LoginAttempt): void {
    const now = this.now();
    this.#count(this.#users, attempt.user, this.policy.freeUserFailures, now);
    if (attempt.address !== undefined)
      this.#count(this.#addresses, attempt.address, this.policy.freeAddressFailures, now);
  }

  /** A successful login: the user starts again, and its address is remembered as the user's. */
  succeeded(attempt: LoginAttempt): void {
    this.#users.delete(attempt.user);
    if (attempt.address === undefined) return;
    const known = (this.#trusted.get(attempt.user) ?? []).filter((a) => a !== attempt.address);
    known.push(attempt.address);
    this.#trusted.set(attempt.user, known.slice(-this.policy.rememberedAddresses));
  }

  /** The entry, unless it has gone stale (then it is dropped). */
  #current(map: LRUCache<string, FailureCount>, key: string, now: number): FailureCount | undefined {
    const entry = map.get(key);
    if (entry !== undefined && now - entry.lastFailureAt > this.policy.forgetAfterMs) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  #count(map: LRUCache<string, FailureCount>, key: string, free: number, now: number): void {
    const entry = this.#current(map, key, now) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailureAt = now;
    if (entry.failures > free) entry.blockedUntil = now + this.delayAfter(entry.failures - free);
    map.set(key, entry);
  }

  /** The block after the n-th failure past the free ones: 1 s, 2 s, 4 s, … up to the cap. */
  delayAfter(excess: number): number {
    // 2^30 s is far past any cap; the bound keeps the power finite.
    const doubled = this.policy.firstDelayMs * 2 ** Math.min(excess - 1, 30);
    return Math.min(doubled, this.policy.maxDelayMs);
  }
}

function refusal(entry: FailureCount, now: number, blocked: 'user' | 'address'): ThrottleDecision {
  return { allowed: false, retryAfterSeconds: Math.ceil((entry.blockedUntil - now) / 1000), blocked };
}

/** The answer's text: why, and when to try again. */
export function throttledMessage(retryAfterSeconds: number): string {
  return `Too many failed logins: try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;
}
