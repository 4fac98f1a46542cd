import { ACCESS_TOKEN_URN_PREFIX, type AccessTokenRegistry } from '@catalog/auth';
import { checkProposal, type CheckedProposal } from '@catalog/model';
import { SYSTEM_ACTOR } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { TtlCache } from './ttl-cache.js';

const ENTITY = 'dataHubAccessToken';
const KEY = 'dataHubAccessTokenKey';

/**
 * How long a session token's "not revoked" answer is believed: every request with a session token asks,
 * so it is cached, but briefly, because a logout on another gateway reaches this one through its
 * change-log listener (which forgets the entry at once) and this TTL only bounds the case where that
 * listener lags. A "revoked" answer never turns back, so its staleness does not matter.
 */
export const SESSION_REVOCATION_TTL_MS = 30_000;

/**
 * The service's tokens as stored entities `urn:li:dataHubAccessToken:<hash>` (the registry's only token
 * entity; the hash is TokenService.tokenId, salted SHA-256 of the token):
 * - a personal access token is valid while the entity has its key aspect. A positive answer is cached
 *   (the ecosystem caches five minutes per node);
 * - a session token is refused once the entity exists: a logout stores the key aspect alone. Without
 *   `dataHubAccessTokenInfo` the record is never listed by listAccessTokens and no user but a token
 *   manager may delete it. The aspect store is shared by every gateway, so a logout holds on all of them.
 * A revocation on this node, or the change log of one made elsewhere, drops the cached entry at once.
 */
export class StoreAccessTokenRegistry implements AccessTokenRegistry {
  private readonly known: TtlCache<true>;
  private readonly sessions: TtlCache<boolean>;

  constructor(
    private readonly store: AspectStore,
    private readonly submitter: ProposalSubmitter,
    ttlMs: number,
    sessionTtlMs = SESSION_REVOCATION_TTL_MS,
  ) {
    this.known = new TtlCache(ttlMs);
    this.sessions = new TtlCache(sessionTtlMs);
  }

  async exists(tokenUrn: string): Promise<boolean> {
    if (this.known.get(tokenUrn)) return true;
    const key = await this.store.get(tokenUrn, KEY);
    if (key !== null) this.known.set(tokenUrn, true);
    return key !== null;
  }

  async revoke(tokenUrn: string): Promise<void> {
    this.known.delete(tokenUrn);
    await this.submit(
      checkProposal({ entityType: ENTITY, entityUrn: tokenUrn, changeType: 'DELETE', aspectName: KEY }),
    );
  }

  async isSessionRevoked(tokenUrn: string): Promise<boolean> {
    const cached = this.sessions.get(tokenUrn);
    if (cached !== undefined) return cached;
    const revoked = (await this.store.get(tokenUrn, KEY)) !== null;
    this.sessions.set(tokenUrn, revoked);
    return revoked;
  }

  async revokeSession(tokenUrn: string): Promise<void> {
    const id = tokenUrn.slice(ACCESS_TOKEN_URN_PREFIX.length);
    await this.submit(
      checkProposal({
        entityType: ENTITY,
        entityUrn: tokenUrn,
        changeType: 'UPSERT',
        aspectName: KEY,
        aspect: { contentType: 'application/json', value: JSON.stringify({ id }) },
      }),
    );
    this.sessions.set(tokenUrn, true);
  }

  forget(tokenUrn: string): void {
    this.known.delete(tokenUrn);
    this.sessions.delete(tokenUrn);
  }

  private async submit(proposal: CheckedProposal): Promise<void> {
    const outcomes = await this.submitter.submit([proposal], { sync: true, actor: SYSTEM_ACTOR });
    const failed = outcomes?.find((o) => !o.ok);
    if (failed) throw new Error(`Writing ${proposal.urn.raw} failed: ${JSON.stringify(failed)}`);
  }
}
