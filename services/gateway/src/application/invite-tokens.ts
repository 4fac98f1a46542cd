import { randomLowercaseToken, type SecretCipher } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { inviteTokenUrn } from './identity-tokens.js';
import { aspectProposal, entityDeleteProposal, writeSynchronously } from './proposal-writes.js';

/** The ecosystem's invite token length (lower-case letters). */
const TOKEN_LENGTH = 32;
/** Page size of the invite-token scan: there are a handful of tokens, one per role at most. */
const SCAN_PAGE = 100;

export interface InviteTokensDeps {
  readonly store: AspectStore;
  readonly submitter: ProposalSubmitter;
  readonly cipher: SecretCipher;
  readonly logger: Logger;
}

/**
 * Invite tokens as the ecosystem keeps them (InviteTokenService): entity `urn:li:inviteToken:<hash>`,
 * aspect `inviteToken{token: encrypted, role?}`. Only the hash names the entity, so checking a token
 * is one key read; the encrypted copy lets an administrator see the current link again.
 */
export class InviteTokens {
  constructor(private readonly deps: InviteTokensDeps) {}

  /** A new token (another one each call). */
  async create(roleUrn: string | undefined, actor: string): Promise<string> {
    if (roleUrn !== undefined && !roleUrn.startsWith('urn:li:')) {
      throw new ValidationError(`roleUrn must be a urn, got ${JSON.stringify(roleUrn)}`);
    }
    const token = randomLowercaseToken(TOKEN_LENGTH);
    const value = {
      token: this.deps.cipher.encrypt(token),
      ...(roleUrn === undefined ? {} : { role: roleUrn }),
    };
    await writeSynchronously(
      this.deps.submitter,
      [aspectProposal('inviteToken', inviteTokenUrn(token), 'inviteToken', value)],
      actor,
    );
    return token;
  }

  /**
   * The token of the role (or the role-less one): the existing one, else a new one. More than one (two
   * callers created one at once) → all deleted and a fresh one made, as the ecosystem does, so everyone
   * converges on a single link. One that no longer decrypts (the key changed) is replaced.
   */
  async get(roleUrn: string | undefined, actor: string): Promise<string> {
    const existing = await this.#tokensFor(roleUrn);
    if (existing.length === 1) {
      const only = existing[0]!;
      try {
        return this.deps.cipher.decrypt(String(only.value['token']));
      } catch {
        this.deps.logger.warn(
          { urn: only.urn },
          'invite token does not decrypt with the current key; replacing it',
        );
      }
    }
    if (existing.length > 0) {
      const deletes = existing.map((a) => entityDeleteProposal('inviteToken', a.urn, 'inviteTokenKey'));
      // Already gone (another caller cleaned up at the same time) is what we wanted.
      await writeSynchronously(this.deps.submitter, deletes, actor, (code) => code === 'NOT_FOUND');
    }
    return this.create(roleUrn, actor);
  }

  /** Valid = its entity exists. */
  async isValid(token: string): Promise<boolean> {
    if (token === '') return false;
    const found = await this.deps.store.getLatest(inviteTokenUrn(token), ['inviteTokenKey', 'inviteToken']);
    return found.length > 0;
  }

  /** The role a valid token grants (undefined: a role-less token), or null when the token is not valid. */
  async roleOf(token: string): Promise<string | undefined | null> {
    if (token === '') return null;
    const found = await this.deps.store.getLatest(inviteTokenUrn(token), ['inviteTokenKey', 'inviteToken']);
    if (found.length === 0) return null;
    const role = found.find((a) => a.aspect === 'inviteToken')?.value['role'];
    return typeof role === 'string' ? role : undefined;
  }

  /** Every stored token of the role (none given: those without a role), from a scan of the aspect. */
  async #tokensFor(roleUrn: string | undefined): Promise<StoredAspect[]> {
    const matching: StoredAspect[] = [];
    let after: string | undefined;
    do {
      const page = await this.deps.store.scan({
        aspect: 'inviteToken',
        limit: SCAN_PAGE,
        ...(after === undefined ? {} : { after }),
      });
      for (const item of page.items) {
        const role = item.value['role'];
        if ((typeof role === 'string' ? role : undefined) === roleUrn) matching.push(item);
      }
      after = page.next;
    } while (after !== undefined);
    return matching;
  }
}
