import type { AccessTokenRegistry } from '@catalog/auth';
import { checkProposal } from '@catalog/model';
import { SYSTEM_ACTOR } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { TtlCache } from './ttl-cache.js';

/**
 * Personal access tokens as stored entities: valid while `urn:li:dataHubAccessToken:<hash>` has its key
 * aspect. A positive answer is cached (the ecosystem caches five minutes per node); a revocation on this
 * node, or the change log of one made elsewhere, drops the entry at once.
 */
export class StoreAccessTokenRegistry implements AccessTokenRegistry {
  private readonly known: TtlCache<true>;

  constructor(
    private readonly store: AspectStore,
    private readonly submitter: ProposalSubmitter,
    ttlMs: number,
  ) {
    this.known = new TtlCache(ttlMs);
  }

  async exists(tokenUrn: string): Promise<boolean> {
    if (this.known.get(tokenUrn)) return true;
    const key = await this.store.get(tokenUrn, 'dataHubAccessTokenKey');
    if (key !== null) this.known.set(tokenUrn, true);
    return key !== null;
  }

  async revoke(tokenUrn: string): Promise<void> {
    this.known.delete(tokenUrn);
    const proposal = checkProposal({
      entityType: 'dataHubAccessToken',
      entityUrn: tokenUrn,
      changeType: 'DELETE',
      aspectName: 'dataHubAccessTokenKey',
    });
    const outcomes = await this.submitter.submit([proposal], { sync: true, actor: SYSTEM_ACTOR });
    const failed = outcomes?.find((o) => !o.ok);
    if (failed) throw new Error(`Revoking ${tokenUrn} failed: ${JSON.stringify(failed)}`);
  }

  forget(tokenUrn: string): void {
    this.known.delete(tokenUrn);
  }
}
