import type { Consumer, EventLog } from '@catalog/events';
import type { Logger } from '@catalog/runtime';
import type { GatewayAuth } from './gateway-auth.js';

/**
 * Keeps this gateway's caches of policies, users and tokens true to the store: a consumer of the
 * versioned change log in a group of its own (every gateway instance sees every record) that drops
 * what a change makes stale. The record key is the entity urn, so nothing is decoded: a change to a
 * policy reloads the policies, one to a user or a group drops what is cached about it (and the group's
 * members), one to a token forgets that it was valid. A revoked privilege therefore stops working
 * once persistence has stored the change and this consumer has read it (measured in the e2e test).
 */
export async function startAuthCacheInvalidation(options: {
  readonly log: EventLog;
  readonly topic: string;
  readonly groupId: string;
  readonly auth: GatewayAuth;
  readonly logger: Logger;
}): Promise<Consumer> {
  const { auth } = options;
  const consumer = await options.log.consume({
    groupId: options.groupId,
    topics: [options.topic],
    fromBeginning: false,
    // A cache of this process only: nothing to resume after a restart, no group to leave behind.
    ephemeral: true,
    maxBatchSize: 1000,
    handler: async (batch) => {
      let policies = false;
      for (const record of batch.records) {
        const urn = record.key;
        if (urn.startsWith('urn:li:dataHubPolicy:')) policies = true;
        else if (urn.startsWith('urn:li:corpuser:') || urn.startsWith('urn:li:corpGroup:')) {
          auth.actors.invalidate(urn);
          auth.authorizer.invalidateActor(urn);
        } else if (urn.startsWith('urn:li:dataHubAccessToken:')) auth.accessTokens.forget(urn);
      }
      if (policies) auth.authorizer.invalidatePolicies();
    },
    onError: (error) => options.logger.warn({ err: error }, 'auth cache invalidation failed; retrying'),
  });
  await consumer.ready;
  return consumer;
}
