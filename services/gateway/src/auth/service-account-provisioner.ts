import type { ServiceAccountProvisioner } from '@catalog/auth';
import { checkProposal } from '@catalog/model';
import { SYSTEM_ACTOR, type Logger } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';

/**
 * Creates the `corpuser` of an external identity the first time it authenticates (spec 2.9): a real
 * user with `corpUserInfo` and an ACTIVE `corpUserStatus`, written as the system actor, so that policies
 * can name it and an administrator can suspend it like any user. One store read per identity and
 * process (remembered after); concurrent first requests of one identity share one creation.
 */
export class ServiceAccountProvisionerStore implements ServiceAccountProvisioner {
  private readonly known = new Map<string, Promise<void>>();

  constructor(
    private readonly store: AspectStore,
    private readonly submitter: ProposalSubmitter,
    private readonly logger: Logger,
  ) {}

  ensure(account: { actorUrn: string; issuer: string; subject: string }): Promise<void> {
    let pending = this.known.get(account.actorUrn);
    if (pending === undefined) {
      pending = this.create(account);
      this.known.set(account.actorUrn, pending);
      pending.catch(() => this.known.delete(account.actorUrn));
    }
    return pending;
  }

  private async create(account: { actorUrn: string; issuer: string; subject: string }): Promise<void> {
    if ((await this.store.get(account.actorUrn, 'corpUserKey')) !== null) return;
    const proposal = (aspectName: string, value: unknown) =>
      checkProposal({
        entityType: 'corpuser',
        entityUrn: account.actorUrn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { contentType: 'application/json', value: JSON.stringify(value) },
      });
    const outcomes = await this.submitter.submit(
      [
        proposal('corpUserInfo', {
          active: true,
          displayName: account.subject,
          title: `Service account of ${account.issuer}`,
        }),
        proposal('corpUserStatus', {
          status: 'ACTIVE',
          lastModified: { actor: SYSTEM_ACTOR, time: Date.now() },
        }),
      ],
      { sync: true, actor: SYSTEM_ACTOR },
    );
    const failed = outcomes?.find((o) => !o.ok);
    if (failed)
      throw new Error(`Creating service account ${account.actorUrn} failed: ${JSON.stringify(failed)}`);
    this.logger.info({ actor: account.actorUrn, issuer: account.issuer }, 'service account created');
  }
}
