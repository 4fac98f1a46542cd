import { identityEventOf, type RequestOrigin } from '@catalog/auth';
import type { ProposalOutcome } from '@catalog/runtime';
import type { PlatformEventPublisher } from './gateway-auth.js';
import { entityTypeOfUrn } from './route-guards.js';

/** Who made a write and where from: what its identity events record. */
export interface IdentityChangeAnnouncement {
  readonly events: PlatformEventPublisher;
  readonly actorUrn: string;
  readonly origin: RequestOrigin;
}

/**
 * Publishes the identity events (tokens, policies, users) of applied writes as platform events, with
 * the acting user and the request's origin, once persistence has reported each outcome: a refused or
 * unchanged write announces nothing.
 */
export async function announceIdentityChanges(
  announcement: IdentityChangeAnnouncement,
  outcomes: readonly ProposalOutcome[],
): Promise<void> {
  for (const outcome of outcomes) {
    if (!outcome.ok || outcome.urn === undefined || outcome.aspectName === undefined) continue;
    const name = identityEventOf({
      urn: outcome.urn,
      aspectName: outcome.aspectName,
      status: outcome.status ?? '',
    });
    if (name === undefined) continue;
    await announcement.events.publish({
      name,
      actorUrn: announcement.actorUrn,
      origin: announcement.origin,
      fields: {
        entityUrn: outcome.urn,
        entityType: entityTypeOfUrn(outcome.urn),
        aspectName: outcome.aspectName,
      },
    });
  }
}
