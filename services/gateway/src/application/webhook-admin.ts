import { randomUUID } from 'node:crypto';
import { SecretCipher, type RequestContext } from '@catalog/auth';
import { CHANGE_CATEGORIES, entityRegistry, NotFoundError, ValidationError } from '@catalog/model';
import {
  checkDestination,
  deliverOnce,
  DestinationError,
  EMPTY_DELIVERY_STATE,
  generateSecret,
  parseDestination,
  signingKeyOf,
  type WebhookFilter,
} from '@catalog/webhooks';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided, type AspectChange } from './aspect-changes.js';
import { requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';
import {
  WEBHOOK_ASPECTS,
  WEBHOOK_ENTITY,
  type StoredDeliveryState,
  type StoredWebhookInfo,
  type StoredWebhookReplay,
  type StoredWebhookSecret,
} from './webhook-records.js';

/** Who manages webhooks: the platform-settings privilege (admins hold it by the default policies). */
const MANAGE_WEBHOOKS = ['MANAGE_GLOBAL_SETTINGS'] as const;
/** The change operations an entity change event carries (the timeline's ChangeOperation). */
const OPERATIONS = [
  'ADD',
  'MODIFY',
  'REMOVE',
  'CREATE',
  'HARD_DELETE',
  'SOFT_DELETE',
  'REINSTATE',
  'STARTED',
  'COMPLETED',
];
/** Replay requests kept on a subscription (the dispatcher handles each once, by its time). */
const KEPT_REPLAY_REQUESTS = 20;
const MIN_SECRET_LENGTH = 16;

export interface WebhookSettings {
  /** Whether loopback and private addresses may be destinations (link-local never). */
  readonly allowPrivate: boolean;
  /** testWebhook's deadline. */
  readonly timeoutMs: number;
}

export interface WebhookFilterInput {
  readonly urns?: readonly string[] | null;
  readonly entityTypes?: readonly string[] | null;
  readonly categories?: readonly string[] | null;
  readonly operations?: readonly string[] | null;
}

export interface CreateWebhookInput {
  readonly name: string;
  readonly url: string;
  readonly description?: string | null;
  readonly filter?: WebhookFilterInput | null;
  /** The signing secret; absent: one is generated and answered once. */
  readonly secret?: string | null;
}

export interface UpdateWebhookInput {
  readonly urn: string;
  readonly name?: string | null;
  readonly url?: string | null;
  readonly description?: string | null;
  readonly filter?: WebhookFilterInput | null;
  readonly secret?: string | null;
}

export interface WebhookDeadLetterView {
  readonly webhookId: string;
  readonly entityUrn: string;
  readonly event: string;
  readonly error: string;
  readonly attempts: number;
  readonly time: number;
}

/** A webhook as its managers see it: never its secret. */
export interface WebhookView {
  readonly urn: string;
  readonly name: string;
  readonly url: string;
  readonly description: string | null;
  readonly filter: WebhookFilter;
  readonly status: 'ACTIVE' | 'PAUSED' | 'SUSPENDED';
  readonly suspendedAt: number | null;
  readonly suspendedReason: string | null;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly lastDeliveredAt: number | null;
  readonly lastError: string | null;
  readonly consecutiveFailures: number;
  readonly deadLetters: readonly WebhookDeadLetterView[];
}

export interface CreatedWebhook {
  readonly webhook: WebhookView;
  /** The generated secret, answered this once; null when the caller gave one. */
  readonly secret: string | null;
}

export interface WebhookTestResult {
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
}

/**
 * Webhook subscriptions (GraphQL createWebhook, updateWebhook, deleteWebhook, pause/resume, testWebhook,
 * replay of dead letters, the webhooks query), stored as the catalog's own `webhook` entity. Every
 * operation takes MANAGE_GLOBAL_SETTINGS. A destination must be http or https and not a link-local or
 * metadata address (nor a private one unless allowed); the signing secret is stored encrypted with
 * SECRET_SERVICE_ENCRYPTION_KEY and never answered again. The subscription delivers only events about
 * entities its creator may read (the dispatcher asks, per event).
 */
export class WebhookAdmin {
  readonly #cipher: SecretCipher;

  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    encryptionKey: string,
    private readonly settings: WebhookSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.#cipher = new SecretCipher(encryptionKey);
  }

  async create(ctx: RequestContext, input: CreateWebhookInput): Promise<CreatedWebhook> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const name = requireName(input.name);
    const url = await this.destination(input.url);
    const filter = filterOf(input.filter);
    const given = input.secret ?? null;
    const secret = given === null ? generateSecret() : requireSecret(given);
    const urn = `urn:li:${WEBHOOK_ENTITY}:${randomUUID()}`;
    const stamp = { time: this.now(), actor: ctx.authentication.actorUrn };
    const info: StoredWebhookInfo = {
      name,
      url,
      description: input.description ?? null,
      filter,
      status: 'ACTIVE',
      resumedAt: null,
      created: stamp,
      lastModified: stamp,
    };
    await writeDecided(this.proposals, ctx, [
      this.change(urn, WEBHOOK_ASPECTS.info, info),
      this.change(urn, WEBHOOK_ASPECTS.secret, this.sealed(secret)),
    ]);
    return { webhook: await this.viewOf(ctx, urn, info), secret: given === null ? secret : null };
  }

  async update(ctx: RequestContext, input: UpdateWebhookInput): Promise<WebhookView> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const { urn, info } = await this.existing(input.urn);
    const next: StoredWebhookInfo = {
      ...info,
      ...(input.name == null ? {} : { name: requireName(input.name) }),
      ...(input.url == null ? {} : { url: await this.destination(input.url) }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.filter == null ? {} : { filter: filterOf(input.filter) }),
      lastModified: { time: this.now(), actor: ctx.authentication.actorUrn },
    };
    const changes = [this.change(urn, WEBHOOK_ASPECTS.info, next)];
    if (input.secret != null)
      changes.push(this.change(urn, WEBHOOK_ASPECTS.secret, this.sealed(requireSecret(input.secret))));
    await writeDecided(this.proposals, ctx, changes);
    return this.viewOf(ctx, urn, next);
  }

  /** Pauses (deliveries stop; the position is kept, nothing is skipped) or resumes (a suspension is lifted too). */
  async setActive(ctx: RequestContext, urnInput: string, active: boolean): Promise<WebhookView> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const { urn, info } = await this.existing(urnInput);
    const time = this.now();
    const next: StoredWebhookInfo = {
      ...info,
      status: active ? 'ACTIVE' : 'PAUSED',
      ...(active ? { resumedAt: time } : {}),
      lastModified: { time, actor: ctx.authentication.actorUrn },
    };
    await writeDecided(this.proposals, ctx, [this.change(urn, WEBHOOK_ASPECTS.info, next)]);
    return this.viewOf(ctx, urn, next);
  }

  async delete(ctx: RequestContext, urnInput: string): Promise<boolean> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const { urn } = await this.existing(urnInput);
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: WEBHOOK_ENTITY, aspect: WEBHOOK_ASPECTS.key, changeType: 'DELETE' },
    ]);
    return true;
  }

  /** Every webhook, the newest first. */
  async list(ctx: RequestContext): Promise<WebhookView[]> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const all = await this.stored.all(WEBHOOK_ENTITY, WEBHOOK_ASPECTS.info);
    const views = await Promise.all(
      all.map(({ urn, info }) => this.viewOf(ctx, urn, info as unknown as StoredWebhookInfo)),
    );
    return views.sort((a, b) => b.createdAt - a.createdAt);
  }

  async get(ctx: RequestContext, urnInput: string): Promise<WebhookView> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const { urn, info } = await this.existing(urnInput);
    return this.viewOf(ctx, urn, info);
  }

  /**
   * Asks the dispatcher to deliver dead letters again (those named by their webhook ids, or all): they
   * leave the list and are delivered in the order they were dead-lettered, with the same webhook ids.
   * Answers how many of the named dead letters are on the list now.
   */
  async replay(ctx: RequestContext, urnInput: string, webhookIds: readonly string[] | null): Promise<number> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const { urn } = await this.existing(urnInput);
    const state = await this.stored.aspect<StoredDeliveryState>(urn, WEBHOOK_ASPECTS.state);
    const letters = state?.deadLetters ?? [];
    const wanted = new Set(webhookIds ?? []);
    const count = letters.filter((d) => wanted.size === 0 || wanted.has(d.webhookId)).length;
    const current = await this.stored.aspect<StoredWebhookReplay>(urn, WEBHOOK_ASPECTS.replay);
    const last = current?.requests.reduce((max, r) => Math.max(max, r.time), 0) ?? 0;
    const request = { time: Math.max(this.now(), last + 1), webhookIds: [...wanted] };
    const requests = [...(current?.requests ?? []), request].slice(-KEPT_REPLAY_REQUESTS);
    await writeDecided(this.proposals, ctx, [this.change(urn, WEBHOOK_ASPECTS.replay, { requests })]);
    return count;
  }

  /** Sends one signed test message to the destination now and answers how it went (nothing is recorded). */
  async test(ctx: RequestContext, urnInput: string): Promise<WebhookTestResult> {
    await requireAnyOf(this.policy, ctx, MANAGE_WEBHOOKS);
    const { urn, info } = await this.existing(urnInput);
    const secret = await this.stored.aspect<StoredWebhookSecret>(urn, WEBHOOK_ASPECTS.secret);
    if (secret === undefined) throw new NotFoundError(`Webhook ${urn} has no signing secret`);
    const time = this.now();
    const outcome = await deliverOnce({
      url: parseDestination(info.url),
      key: signingKeyOf(this.#cipher.decrypt(secret.value), secret.format),
      webhookId: `msg_test_${randomUUID().replaceAll('-', '')}`,
      body: JSON.stringify({ type: 'webhook.test', webhookUrn: urn, timestamp: time }),
      timeoutMs: this.settings.timeoutMs,
      allowPrivate: this.settings.allowPrivate,
      now: this.now,
    });
    return outcome.ok
      ? { delivered: true, statusCode: outcome.status, error: null }
      : { delivered: false, statusCode: outcome.status ?? null, error: outcome.error };
  }

  private async existing(urnInput: string): Promise<{ urn: string; info: StoredWebhookInfo }> {
    const { urn } = requireUrnOf(urnInput, [WEBHOOK_ENTITY], 'urn');
    const info = await this.stored.aspect<StoredWebhookInfo>(urn, WEBHOOK_ASPECTS.info);
    if (info === undefined) throw new NotFoundError(`Webhook ${urn} does not exist`);
    return { urn, info };
  }

  private async destination(raw: string): Promise<string> {
    try {
      const url = parseDestination(raw);
      await checkDestination(url, this.settings.allowPrivate);
      return url.toString();
    } catch (error) {
      if (error instanceof DestinationError) throw new ValidationError(error.message);
      throw error;
    }
  }

  private sealed(secret: string): StoredWebhookSecret {
    return {
      value: this.#cipher.encrypt(secret),
      format: /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret) ? 'WHSEC' : 'RAW',
    };
  }

  private change(urn: string, aspect: string, value: object): AspectChange {
    return { urn, entityType: WEBHOOK_ENTITY, aspect, value: value as AspectChange['value'] };
  }

  private async viewOf(ctx: RequestContext, urn: string, info: StoredWebhookInfo): Promise<WebhookView> {
    const state = {
      ...EMPTY_DELIVERY_STATE,
      ...(await this.stored.aspect<StoredDeliveryState>(urn, WEBHOOK_ASPECTS.state)),
    };
    const suspended = state.suspendedAt !== null && (info.resumedAt ?? 0) <= state.suspendedAt;
    // A dead letter carries the change event: shown only about entities the viewer may read.
    const readable = new Set(
      await this.policy.readable(ctx, [...new Set(state.deadLetters.map((d) => d.entityUrn))]),
    );
    return {
      urn,
      name: info.name,
      url: info.url,
      description: info.description ?? null,
      filter: info.filter,
      status: suspended ? 'SUSPENDED' : info.status,
      suspendedAt: suspended ? state.suspendedAt : null,
      suspendedReason: suspended ? state.suspendedReason : null,
      createdBy: info.created.actor,
      createdAt: info.created.time,
      lastDeliveredAt: state.lastDeliveredAt,
      lastError: state.lastError,
      consecutiveFailures: state.consecutiveDeadLetters,
      deadLetters: state.deadLetters
        .filter((d) => readable.has(d.entityUrn))
        .map((d) => ({
          webhookId: d.webhookId,
          entityUrn: d.entityUrn,
          event: d.body,
          error: d.error,
          attempts: d.attempts,
          time: d.time,
        })),
    };
  }
}

function requireName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ValidationError('A webhook needs a name');
  return trimmed;
}

function requireSecret(secret: string): string {
  if (secret.length < MIN_SECRET_LENGTH)
    throw new ValidationError(`A webhook secret needs at least ${MIN_SECRET_LENGTH} characters`);
  return secret;
}

function filterOf(input: WebhookFilterInput | null | undefined): WebhookFilter {
  const urns = [...new Set(input?.urns ?? [])];
  for (const urn of urns)
    if (!/^urn:li:[A-Za-z][\w]*:.+/.test(urn))
      throw new ValidationError(`filter.urns: not a urn: ${JSON.stringify(urn)}`);
  const entityTypes = [...new Set(input?.entityTypes ?? [])];
  for (const type of entityTypes)
    if (type !== 'schemaField' && entityRegistry.getEntity(type) === undefined)
      throw new ValidationError(`filter.entityTypes: unknown entity type ${JSON.stringify(type)}`);
  const categories = [...new Set(input?.categories ?? [])];
  for (const category of categories)
    if (!(CHANGE_CATEGORIES as readonly string[]).includes(category))
      throw new ValidationError(
        `filter.categories: unknown category ${JSON.stringify(category)} (one of ${CHANGE_CATEGORIES.join(', ')})`,
      );
  const operations = [...new Set(input?.operations ?? [])];
  for (const operation of operations)
    if (!OPERATIONS.includes(operation))
      throw new ValidationError(
        `filter.operations: unknown operation ${JSON.stringify(operation)} (one of ${OPERATIONS.join(', ')})`,
      );
  return { urns, entityTypes, categories, operations };
}
