import { randomBytes } from 'node:crypto';
import { SYSTEM_ACTOR_URN, type RequestContext } from '@catalog/auth';
import type { DeliveryState, ReplayRequest, WebhookFilter } from '@catalog/webhooks';

/** The catalog's own webhook entity and its aspects (packages/model/src/registry/catalog-registry-data.ts). */
export const WEBHOOK_ENTITY = 'webhook';
export const WEBHOOK_ASPECTS = {
  key: 'webhookKey',
  info: 'webhookInfo',
  secret: 'webhookSecret',
  state: 'webhookDeliveryState',
  replay: 'webhookReplay',
} as const;

interface Stamp {
  readonly time: number;
  readonly actor: string;
}

/** The stored `webhookInfo`: what the managers set. */
export interface StoredWebhookInfo {
  readonly name: string;
  readonly url: string;
  readonly description?: string | null;
  readonly filter: WebhookFilter;
  readonly status: 'ACTIVE' | 'PAUSED';
  readonly resumedAt?: number | null;
  readonly created: Stamp;
  readonly lastModified: Stamp;
}

/** The stored `webhookSecret` (restricted): the key encrypted, and how it reads. */
export interface StoredWebhookSecret {
  readonly value: string;
  readonly format: 'RAW' | 'WHSEC';
}

export interface StoredWebhookReplay {
  readonly requests: readonly ReplayRequest[];
}

export type StoredDeliveryState = DeliveryState;

/** A context acting as the system, for the dispatcher's own writes (its delivery state). */
export function systemContext(what: string): RequestContext {
  return {
    authentication: {
      actorUrn: SYSTEM_ACTOR_URN,
      actorId: SYSTEM_ACTOR_URN.slice('urn:li:corpuser:'.length),
      method: 'system-client',
      isSystem: true,
    },
    origin: {
      sourceIp: '',
      userAgent: what,
      eventSource: 'GRAPHQL',
      traceId: randomBytes(16).toString('hex'),
    },
  };
}

/**
 * A context acting as a subscription's creator, to decide which events it may receive: decided as a
 * GraphQL read (always decided, whatever the REST toggle says).
 */
export function creatorContext(actorUrn: string): RequestContext {
  return {
    authentication: {
      actorUrn,
      actorId: actorUrn.replace(/^urn:li:corpuser:/, ''),
      method: 'access-token',
      isSystem: false,
    },
    origin: {
      sourceIp: '',
      userAgent: 'webhook-dispatcher',
      eventSource: 'GRAPHQL',
      traceId: randomBytes(16).toString('hex'),
    },
  };
}
