import { SecretCipher } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import {
  EMPTY_DELIVERY_STATE,
  signingKeyOf,
  type DeliveryState,
  type DispatchSubscription,
  type WebhookSource,
} from '@catalog/webhooks';
import type { Logger } from '@catalog/runtime';
import type { AccessPolicy } from './access-policy.js';
import { writeDecided } from './aspect-changes.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';
import {
  creatorContext,
  systemContext,
  WEBHOOK_ASPECTS,
  WEBHOOK_ENTITY,
  type StoredDeliveryState,
  type StoredWebhookInfo,
  type StoredWebhookReplay,
  type StoredWebhookSecret,
} from './webhook-records.js';

/**
 * What the webhook dispatcher reads and writes of the catalog (its WebhookSource): the stored
 * subscriptions with their keys decrypted, their delivery state written as the system through the
 * proposal pipeline (so it is stored, replicated and survives restarts like any aspect), and the read
 * decision for each subscription's creator, made by AccessPolicy as a GraphQL read of the entity.
 */
export class WebhookDeliveries implements WebhookSource {
  readonly #cipher: SecretCipher;

  constructor(
    private readonly stored: StoredEntities,
    private readonly store: Pick<AspectStore, 'getLatest'>,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    encryptionKey: string,
    private readonly logger: Logger,
  ) {
    this.#cipher = new SecretCipher(encryptionKey);
  }

  async subscriptions(): Promise<readonly DispatchSubscription[]> {
    const infos = await this.stored.all(WEBHOOK_ENTITY, WEBHOOK_ASPECTS.info);
    const out: DispatchSubscription[] = [];
    for (const { urn, info } of infos) {
      const aspects = new Map(
        (
          await this.store.getLatest(urn, [
            WEBHOOK_ASPECTS.secret,
            WEBHOOK_ASPECTS.state,
            WEBHOOK_ASPECTS.replay,
          ])
        ).map((a) => [a.aspect, a.value]),
      );
      const webhook = info as unknown as StoredWebhookInfo;
      const secret = aspects.get(WEBHOOK_ASPECTS.secret) as StoredWebhookSecret | undefined;
      if (secret === undefined) continue;
      let key: Buffer;
      try {
        key = signingKeyOf(this.#cipher.decrypt(secret.value), secret.format);
      } catch (error) {
        this.logger.error(
          { err: error, webhook: urn },
          'webhook signing key cannot be decrypted; not delivering',
        );
        continue;
      }
      const state = aspects.get(WEBHOOK_ASPECTS.state) as StoredDeliveryState | undefined;
      const replay = aspects.get(WEBHOOK_ASPECTS.replay) as StoredWebhookReplay | undefined;
      out.push({
        urn,
        url: webhook.url,
        filter: webhook.filter,
        status: webhook.status,
        resumedAt: webhook.resumedAt ?? null,
        createdAt: webhook.created.time,
        creator: webhook.created.actor,
        key,
        state: { ...EMPTY_DELIVERY_STATE, ...state },
        replay: replay?.requests ?? [],
      });
    }
    return out;
  }

  /** Writes the state of a subscription that still exists (a deleted one is not written back to life). */
  async saveState(urn: string, state: DeliveryState): Promise<void> {
    if (!(await this.stored.exists(urn))) return;
    await writeDecided(this.proposals, systemContext('webhook-dispatcher'), [
      { urn, entityType: WEBHOOK_ENTITY, aspect: WEBHOOK_ASPECTS.state, value: state },
    ]);
  }

  mayRead(actorUrn: string, entityUrn: string): Promise<boolean> {
    return this.policy.mayRead(creatorContext(actorUrn), entityUrn);
  }
}
