import { SecretCipher, type RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const MANAGE_SECRETS = ['MANAGE_SECRETS'] as const;
const ENTITY = 'dataHubSecret';
const VALUE_ASPECT = 'dataHubSecretValue';

/** A secret as it may be shown: never its value. */
export interface SecretSummary {
  readonly urn: string;
  readonly name: string;
  readonly description: string | null;
}

export interface SecretPage {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly secrets: readonly SecretSummary[];
}

interface StoredSecret {
  readonly name: string;
  readonly value: string;
  readonly description?: string;
  readonly created?: { readonly time: number; readonly actor: string };
}

/**
 * Secrets for ingestion recipes, as the ecosystem's secret mutations keep them: named by their urn
 * (`urn:li:dataHubSecret:<name>`), the value encrypted at rest with SECRET_SERVICE_ENCRYPTION_KEY. Every
 * operation takes MANAGE_SECRETS, asked first; listings never carry values, and only getSecretValues
 * decrypts, for a holder of MANAGE_SECRETS.
 */
export class SecretAdmin {
  readonly #cipher: SecretCipher;

  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
    encryptionKey: string,
  ) {
    this.#cipher = new SecretCipher(encryptionKey);
  }

  /** Creates a secret and answers its urn; a name in use is refused. */
  async create(
    ctx: RequestContext,
    input: { readonly name: string; readonly value: string; readonly description?: string | null },
  ): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_SECRETS);
    const urn = urnOf(input.name);
    if (await this.stored.exists(urn)) throw new ValidationError('This Secret already exists!');
    await this.write(ctx, urn, {
      name: input.name,
      value: this.#cipher.encrypt(input.value),
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      created: { time: Date.now(), actor: ctx.authentication.actorUrn },
    });
    return urn;
  }

  /** Replaces an existing secret's name, value and description, keeping when it was created. */
  async update(
    ctx: RequestContext,
    input: {
      readonly urn: string;
      readonly name: string;
      readonly value: string;
      readonly description?: string | null;
    },
  ): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_SECRETS);
    const { urn } = requireUrnOf(input.urn, [ENTITY], 'urn');
    const current = await this.stored.aspect<StoredSecret>(urn, VALUE_ASPECT);
    if (current === undefined) throw new ValidationError(`Secret for urn ${urn} doesn't exists!`);
    await this.write(ctx, urn, {
      name: input.name,
      value: this.#cipher.encrypt(input.value),
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      ...(current.created === undefined ? {} : { created: current.created }),
    });
    return urn;
  }

  /** Deletes a secret (its key, hence the entity) and answers its urn. */
  async delete(ctx: RequestContext, urn: string): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_SECRETS);
    requireUrnOf(urn, [ENTITY], 'urn');
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: ENTITY, aspect: 'dataHubSecretKey', changeType: 'DELETE' },
    ]);
    return urn;
  }

  /** A page of secrets (names and descriptions), the newest first; `query` matches names. */
  async list(
    ctx: RequestContext,
    input: { readonly start?: number | null; readonly count?: number | null; readonly query?: string | null },
  ): Promise<SecretPage> {
    await requireAnyOf(this.policy, ctx, MANAGE_SECRETS);
    const start = Math.max(0, input.start ?? 0);
    const count = Math.max(0, input.count ?? 20);
    const query = (input.query ?? '').trim().toLowerCase().replace(/^\*$/, '');
    const all = (await this.stored.all(ENTITY, VALUE_ASPECT))
      .map(({ urn, info }) => ({ urn, secret: info as unknown as StoredSecret }))
      .filter(({ secret }) => query === '' || secret.name.toLowerCase().includes(query))
      .sort((a, b) => (b.secret.created?.time ?? 0) - (a.secret.created?.time ?? 0));
    const page = all.slice(start, start + count);
    return {
      start,
      count: page.length,
      total: all.length,
      secrets: page.map(({ urn, secret }) => ({
        urn,
        name: secret.name,
        description: secret.description ?? null,
      })),
    };
  }

  /** The plaintext values of the named secrets that exist. */
  async values(ctx: RequestContext, names: readonly string[]): Promise<{ name: string; value: string }[]> {
    await requireAnyOf(this.policy, ctx, MANAGE_SECRETS);
    const found: { name: string; value: string }[] = [];
    for (const name of new Set(names)) {
      const secret = await this.stored.aspect<StoredSecret>(urnOf(name), VALUE_ASPECT);
      if (secret !== undefined) found.push({ name: secret.name, value: this.#cipher.decrypt(secret.value) });
    }
    return found;
  }

  private write(ctx: RequestContext, urn: string, value: StoredSecret): Promise<void> {
    return writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: VALUE_ASPECT, value }]);
  }
}

function urnOf(name: string): string {
  if (name.trim() === '') throw new ValidationError('A secret needs a name');
  return requireUrnOf(`urn:li:${ENTITY}:${name}`, [ENTITY], 'name').urn;
}
