import {
  type RequestOrigin,
  hashPassword,
  randomLowercaseToken,
  SecretCipher,
  verifyPassword,
  type StoredCredentials,
} from '@catalog/auth';
import { ConflictError, type CheckedProposal } from '@catalog/model';
import { SYSTEM_ACTOR, type Logger } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { corpUserIdOf, corpUserUrn, resetTokenMatches, storedResetToken } from './identity-tokens.js';
import { InviteTokens } from './invite-tokens.js';
import {
  ELIGIBILITY_ASPECTS,
  passwordLoginVerdict,
  sessionDenialReason,
  type LoginDenialReason,
  type SessionDenialReason,
} from './login-eligibility.js';
import { NativeUserError } from './native-user-errors.js';
import { aspectProposal, writeSynchronously } from './proposal-writes.js';

export const ROOT_USER_URN = 'urn:li:corpuser:datahub';
const UNKNOWN_USER_URN = 'urn:li:corpuser:UNKNOWN';
/** The ecosystem's length of reset tokens (lower-case letters). */
const TOKEN_LENGTH = 32;

export interface NativeUserServiceDeps {
  readonly store: AspectStore;
  readonly submitter: ProposalSubmitter;
  readonly auth: GatewayAuth;
  readonly logger: Logger;
  /** Clock for reset-token expiry and audit stamps; tests pin it. */
  readonly now?: () => number;
}

export interface SignUpRequest {
  readonly userUrn: string;
  readonly fullName: string;
  readonly email: string;
  readonly password: string;
  readonly inviteToken: string;
  readonly title?: string;
}

export interface ResetCredentialsRequest {
  readonly userUrn: string;
  readonly password: string;
  readonly resetToken: string;
}

export interface CredentialCheck {
  readonly matches: boolean;
  /** INVALID_CREDENTIALS on a mismatch; the session denial when the password matched but the user may not log in. */
  readonly denialReason?: LoginDenialReason;
}

type AspectValue = Readonly<Record<string, unknown>>;

/**
 * Native (password) users, password resets and invite tokens, stored as the ecosystem stores them:
 * `corpUserCredentials` on the user, `inviteToken` entities keyed by the token's hash. Reads go to the
 * store (the primary copy); writes go through the proposal log synchronously, so a read after a write
 * sees it.
 */
export class NativeUserService {
  readonly #store: AspectStore;
  readonly #submitter: ProposalSubmitter;
  readonly #auth: GatewayAuth;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #cipher: SecretCipher;
  readonly #invites: InviteTokens;
  /** Urns no one may sign up as: the system client and the ecosystem's built-in actors. */
  readonly #reserved: ReadonlySet<string>;
  /** Credentials to verify against when a user has none, so an unknown user costs a login the same time. */
  #decoy: Promise<StoredCredentials> | undefined;

  constructor(deps: NativeUserServiceDeps) {
    this.#store = deps.store;
    this.#submitter = deps.submitter;
    this.#auth = deps.auth;
    this.#logger = deps.logger;
    this.#now = deps.now ?? Date.now;
    this.#cipher = new SecretCipher(deps.auth.settings.secretEncryptionKey);
    this.#invites = new InviteTokens({ ...deps, cipher: this.#cipher });
    this.#reserved = new Set([
      corpUserUrn(deps.auth.settings.systemClientId),
      SYSTEM_ACTOR,
      ROOT_USER_URN,
      UNKNOWN_USER_URN,
    ]);
  }

  /** Whether `userUrn` is one of the built-in actors nobody may sign up as. */
  isReservedUser(userUrn: string): boolean {
    return this.#reserved.has(userUrn);
  }

  /**
   * Creates a native user from an invite: corpUserInfo, corpUserStatus ACTIVE and credentials, written
   * by the system actor in that order. The writes are CREATEs, so of two sign-ups racing for one urn
   * only the first lands; the existence check before them gives the ecosystem's message.
   */
  async signUp(request: SignUpRequest, origin?: RequestOrigin): Promise<void> {
    const { userUrn } = request;
    if (corpUserIdOf(userUrn) === undefined) throw new NativeUserError('INVALID_USER_URN');
    if (!(await this.isValidInviteToken(request.inviteToken)))
      throw new NativeUserError('INVALID_INVITE_TOKEN');
    if (this.#reserved.has(userUrn)) throw new NativeUserError('RESERVED_USER');
    // Any aspect counts, a soft-deleted user too (the ecosystem's exists(urn, includeSoftDeleted)).
    if ((await this.#store.getLatest(userUrn)).length > 0) throw new NativeUserError('USER_EXISTS');

    const credentials = await hashPassword(request.password);
    const info = {
      active: true,
      fullName: request.fullName,
      displayName: request.fullName,
      email: request.email,
      ...(request.title === undefined ? {} : { title: request.title }),
    };
    const status = { status: 'ACTIVE', lastModified: { actor: SYSTEM_ACTOR, time: this.#now() } };
    try {
      await writeSynchronously(
        this.#submitter,
        [
          userProposal(userUrn, 'corpUserInfo', info, 'CREATE'),
          userProposal(userUrn, 'corpUserStatus', status, 'CREATE'),
          userProposal(userUrn, 'corpUserCredentials', { ...credentials }, 'CREATE'),
        ],
        SYSTEM_ACTOR,
        undefined,
        origin,
      );
    } catch (error) {
      if (error instanceof ConflictError) throw new NativeUserError('USER_EXISTS');
      throw error;
    }
    // The directory may remember the urn as unknown (a token or login tried before the user existed).
    this.#auth.actors.invalidate(userUrn);
    this.#logger.info({ userUrn }, 'native user signed up');
  }

  /**
   * Checks a password. A user without credentials (unknown or not native) is a mismatch, not an error.
   * A match is still refused (denialReason) when the user may not have a session.
   */
  async verifyCredentials(userUrn: string, password: string): Promise<CredentialCheck> {
    const aspects = await this.#aspects(userUrn, [...ELIGIBILITY_ASPECTS, 'corpUserCredentials']);
    const stored = credentialsOf(aspects.get('corpUserCredentials'));
    let matches: boolean;
    if (stored === undefined) {
      // Burn the same work as a real check: response time must not tell which users exist.
      await verifyPassword(await this.#decoyCredentials(), password);
      matches = false;
    } else {
      matches = await verifyPassword(stored, password, this.#cipher);
    }
    const denial = matches ? sessionDenialReason(aspects, this.#auth.settings.enforceExistence) : undefined;
    return passwordLoginVerdict(matches, denial);
  }

  /** Why the user may not have a session (one store read), or undefined when they may. */
  async sessionDenialReason(userUrn: string): Promise<SessionDenialReason | undefined> {
    const aspects = await this.#aspects(userUrn, ELIGIBILITY_ASPECTS);
    return sessionDenialReason(aspects, this.#auth.settings.enforceExistence);
  }

  /**
   * A new password reset token for a native user, valid for PASSWORD_RESET_TOKEN_EXPIRATION_MS. Only
   * its SHA-256 digest is stored; the token itself is returned once, to the administrator who asked.
   */
  async createResetToken(
    userUrn: string,
    actor: string = SYSTEM_ACTOR,
    origin?: RequestOrigin,
  ): Promise<string> {
    const aspects = await this.#aspects(userUrn, ['corpUserCredentials']);
    const current = aspects.get('corpUserCredentials');
    const stored = credentialsOf(current);
    if (current === undefined || stored === undefined) throw new NativeUserError('NOT_NATIVE_USER');
    const token = randomLowercaseToken(TOKEN_LENGTH);
    const value = {
      ...current,
      passwordResetToken: storedResetToken(token),
      passwordResetTokenExpirationTimeMillis:
        this.#now() + this.#auth.settings.passwordResetTokenExpirationMs,
    };
    await writeSynchronously(
      this.#submitter,
      [userProposal(userUrn, 'corpUserCredentials', value)],
      actor,
      undefined,
      origin,
    );
    return token;
  }

  /**
   * Sets a new password with a reset token, checked in the ecosystem's order (and texts). Unlike the
   * ecosystem, a used token is cleared: a reset link works once, not until it expires.
   */
  async resetCredentials(request: ResetCredentialsRequest, origin?: RequestOrigin): Promise<void> {
    const { userUrn } = request;
    const aspects = await this.#aspects(userUrn, ['corpUserCredentials']);
    const current = aspects.get('corpUserCredentials');
    if (credentialsOf(current) === undefined) throw new NativeUserError('NO_SUCH_USER');
    const storedToken = current?.['passwordResetToken'];
    const expiresAt = current?.['passwordResetTokenExpirationTimeMillis'];
    if (typeof storedToken !== 'string' || typeof expiresAt !== 'number') {
      throw new NativeUserError('NO_RESET_TOKEN');
    }
    if (!resetTokenMatches(storedToken, request.resetToken, this.#cipher)) {
      throw new NativeUserError('INVALID_RESET_TOKEN');
    }
    if (this.#now() > expiresAt) throw new NativeUserError('RESET_TOKEN_EXPIRED');
    const credentials = await hashPassword(request.password);
    await writeSynchronously(
      this.#submitter,
      [userProposal(userUrn, 'corpUserCredentials', { ...credentials })],
      SYSTEM_ACTOR,
      undefined,
      origin,
    );
    this.#logger.info({ userUrn }, 'native user credentials reset');
  }

  /** A new invite token (another one each call); the stored aspect holds it encrypted. */
  createInviteToken(roleUrn?: string, actor: string = SYSTEM_ACTOR): Promise<string> {
    return this.#invites.create(roleUrn, actor);
  }

  /** The existing invite token of the role (none: the role-less one), else a new one. */
  getInviteToken(roleUrn?: string, actor: string = SYSTEM_ACTOR): Promise<string> {
    return this.#invites.get(roleUrn, actor);
  }

  /** The role an invite token grants (undefined: none), or null when the token is not valid. */
  inviteTokenRole(token: string): Promise<string | undefined | null> {
    return this.#invites.roleOf(token);
  }

  /** Valid = its entity exists (the urn is derived from the token, so no scan). */
  isValidInviteToken(token: string): Promise<boolean> {
    return this.#invites.isValid(token);
  }

  async #aspects(urn: string, names: readonly string[]): Promise<ReadonlyMap<string, AspectValue>> {
    const found = await this.#store.getLatest(urn, names);
    return new Map(found.map((a) => [a.aspect, a.value]));
  }

  #decoyCredentials(): Promise<StoredCredentials> {
    // Computed once, lazily: a random password nobody knows, hashed like a real one.
    this.#decoy ??= hashPassword(randomLowercaseToken(TOKEN_LENGTH));
    return this.#decoy;
  }
}

/** salt + hashedPassword when the aspect has both (what makes a user native). */
function credentialsOf(value: AspectValue | undefined): StoredCredentials | undefined {
  const salt = value?.['salt'];
  const hashedPassword = value?.['hashedPassword'];
  if (typeof salt !== 'string' || typeof hashedPassword !== 'string') return undefined;
  if (salt === '' || hashedPassword === '') return undefined;
  return { salt, hashedPassword };
}

function userProposal(
  urn: string,
  aspect: string,
  value: AspectValue,
  changeType: 'UPSERT' | 'CREATE' = 'UPSERT',
): CheckedProposal {
  return aspectProposal('corpuser', urn, aspect, value, changeType);
}
