import type { RegistryAspectData, RegistryEntityData } from './registry-data.js';

/**
 * Entities of the catalog's own (the ecosystem has none like them), registered beside the generated
 * registry data so they are stored, replicated and versioned as any other entity: the proposals
 * pipeline writes them and both store families keep them. Their schemas use only named types the
 * generated data defines first (`com.linkedin.common.AuditStamp`), so they parse after it.
 *
 * `webhook`: an outbound webhook subscription (GraphQL createWebhook and kin; the webhook dispatcher
 * delivers to it). `webhookSecret` holds the signing key encrypted and is a restricted aspect;
 * `webhookDeliveryState` is the dispatcher's (positions, dead letters, suspension); `webhookReplay`
 * holds the replay requests the gateway makes of the dispatcher (so the two never write one aspect).
 */
const STRINGS = { type: 'array', items: 'string' } as const;

const aspects: readonly RegistryAspectData[] = [
  {
    name: 'webhookKey',
    recordName: 'io.catalog.webhook.WebhookKey',
    kind: 'versioned',
    schema: {
      type: 'record',
      name: 'io.catalog.webhook.WebhookKey',
      fields: [{ name: 'id', type: 'string' }],
    },
    searchable: [],
    relationships: [],
  },
  {
    name: 'webhookInfo',
    recordName: 'io.catalog.webhook.WebhookInfo',
    kind: 'versioned',
    schema: {
      type: 'record',
      name: 'io.catalog.webhook.WebhookInfo',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'url', type: 'string' },
        { name: 'description', type: ['null', 'string'], default: null },
        {
          name: 'filter',
          type: {
            type: 'record',
            name: 'io.catalog.webhook.WebhookFilter',
            fields: [
              { name: 'urns', type: STRINGS, default: [] },
              { name: 'entityTypes', type: STRINGS, default: [] },
              { name: 'categories', type: STRINGS, default: [] },
              { name: 'operations', type: STRINGS, default: [] },
            ],
          },
        },
        /** ACTIVE or PAUSED: what the managers asked (suspension is the dispatcher's, in the delivery state). */
        { name: 'status', type: 'string' },
        /** When the managers last resumed it: a suspension older than this is lifted. */
        { name: 'resumedAt', type: ['null', 'long'], default: null },
        { name: 'created', type: 'com.linkedin.common.AuditStamp' },
        { name: 'lastModified', type: 'com.linkedin.common.AuditStamp' },
      ],
    },
    searchable: [],
    relationships: [],
  },
  {
    name: 'webhookSecret',
    recordName: 'io.catalog.webhook.WebhookSecret',
    kind: 'versioned',
    schema: {
      type: 'record',
      name: 'io.catalog.webhook.WebhookSecret',
      fields: [
        /** The signing key, encrypted with SECRET_SERVICE_ENCRYPTION_KEY. */
        { name: 'value', type: 'string' },
        /** RAW: the key is the given string's UTF-8 bytes; WHSEC: base64 after `whsec_`. */
        { name: 'format', type: 'string' },
      ],
    },
    searchable: [],
    relationships: [],
  },
  {
    name: 'webhookDeliveryState',
    recordName: 'io.catalog.webhook.WebhookDeliveryState',
    kind: 'versioned',
    schema: {
      type: 'record',
      name: 'io.catalog.webhook.WebhookDeliveryState',
      fields: [
        /** Per platform-event partition (decimal), the next offset to consider. */
        { name: 'positions', type: { type: 'map', values: 'string' }, default: {} },
        { name: 'consecutiveDeadLetters', type: 'int', default: 0 },
        { name: 'suspendedAt', type: ['null', 'long'], default: null },
        { name: 'suspendedReason', type: ['null', 'string'], default: null },
        { name: 'lastDeliveredAt', type: ['null', 'long'], default: null },
        { name: 'lastError', type: ['null', 'string'], default: null },
        /** The newest replay request handled (webhookReplay.requests[].time). */
        { name: 'replayedThrough', type: 'long', default: 0 },
        {
          name: 'deadLetters',
          type: {
            type: 'array',
            items: {
              type: 'record',
              name: 'io.catalog.webhook.WebhookDeadLetter',
              fields: [
                { name: 'webhookId', type: 'string' },
                { name: 'entityUrn', type: 'string' },
                /** The change event's JSON, as it was delivered. */
                { name: 'body', type: 'string' },
                { name: 'error', type: 'string' },
                { name: 'attempts', type: 'int' },
                { name: 'time', type: 'long' },
              ],
            },
          },
          default: [],
        },
      ],
    },
    searchable: [],
    relationships: [],
  },
  {
    name: 'webhookReplay',
    recordName: 'io.catalog.webhook.WebhookReplay',
    kind: 'versioned',
    schema: {
      type: 'record',
      name: 'io.catalog.webhook.WebhookReplay',
      fields: [
        {
          name: 'requests',
          type: {
            type: 'array',
            items: {
              type: 'record',
              name: 'io.catalog.webhook.WebhookReplayRequest',
              fields: [
                { name: 'time', type: 'long' },
                /** The dead letters to deliver again (their webhook ids); empty: all of them. */
                { name: 'webhookIds', type: STRINGS, default: [] },
              ],
            },
          },
          default: [],
        },
      ],
    },
    searchable: [],
    relationships: [],
  },
];

const entities: readonly RegistryEntityData[] = [
  {
    name: 'webhook',
    keyAspect: 'webhookKey',
    category: 'internal',
    aspects: ['webhookInfo', 'webhookSecret', 'webhookDeliveryState', 'webhookReplay'],
  },
];

export const CATALOG_REGISTRY_DATA = { aspects, entities } as const;

/** The entity types of the catalog's own, which the ecosystem's SDK and clients do not know. */
export const CATALOG_OWN_ENTITIES: ReadonlySet<string> = new Set(entities.map((e) => e.name));
