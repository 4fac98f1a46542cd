import { randomUUID } from 'node:crypto';
import type { AuthSettings } from '@catalog/auth';
import type { EventLog } from '@catalog/events';
import type { AdapterSettings, Logger, OutcomeChannel } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { WebhookSource } from '@catalog/webhooks';
import { AccessPolicy } from './application/access-policy.js';
import { Proposals } from './application/proposals.js';
import { StoredEntities } from './application/stored-entities.js';
import { WebhookDeliveries } from './application/webhook-deliveries.js';
import { createGatewayAuth } from './auth/create-gateway-auth.js';
import { ProposalSubmitter } from './ingest/proposal-submitter.js';

export interface WebhookSourceParts {
  readonly adapters: AdapterSettings;
  readonly log: EventLog;
  readonly store: AspectStore;
  /** Where persistence reports outcomes: the dispatcher's state writes wait for theirs. */
  readonly outcomes: OutcomeChannel;
  readonly auth: AuthSettings;
  readonly syncTimeoutMs: number;
  readonly logger: Logger;
}

/**
 * The webhook subscriptions as a dispatcher running on its own reads and writes them (the distributed
 * family's webhook-dispatcher deployable): the same WebhookDeliveries the all-in-one catalog hands its
 * dispatcher, over the store, the proposal log and the policy engine, without the HTTP interfaces.
 */
export function composeWebhookSource(parts: WebhookSourceParts): WebhookSource {
  const submitter = new ProposalSubmitter({
    log: parts.log,
    topic: parts.adapters.topics.metadataChangeProposal,
    outcomes: parts.outcomes,
    syncTimeoutMs: parts.syncTimeoutMs,
    newRequestId: randomUUID,
    maxMessageBytes: parts.adapters.maxMessageBytes,
  });
  const auth = createGatewayAuth({
    settings: parts.auth,
    store: parts.store,
    log: parts.log,
    platformEventTopic: parts.adapters.topics.platformEvent,
    submitter,
    logger: parts.logger,
  });
  const policy = new AccessPolicy(auth, parts.store);
  const proposals = new Proposals(parts.store, submitter, policy);
  return new WebhookDeliveries(
    new StoredEntities(parts.store),
    parts.store,
    policy,
    proposals,
    parts.auth.secretEncryptionKey,
    parts.logger,
  );
}
