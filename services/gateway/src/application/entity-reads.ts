import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, isRestrictedAspect } from '@catalog/model';
import { namesReadableBy, visibleToActor } from './aspect-visibility.js';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';

type Aspects = readonly StoredAspect[];

/** The aspects of the entities read, by urn, in the order asked (entities with nothing stored have none). */
export type AspectsByUrn = ReadonlyMap<string, Aspects>;

/**
 * Reads of stored entities, as the acting identity may see them: the one read policy every interface's
 * single reads, batch reads, lists, scrolls and search hits go through.
 *
 * - An entity the actor may not read is refused (single and batch reads: 403, as the ecosystem) or left
 *   out (lists, scrolls, search pages), decided per entity exactly as a single read of it is.
 * - Restricted aspects (credentials, secret values, invite tokens: `RESTRICTED_ASPECTS` of the model)
 *   never leave: only the system actor reads them, whatever it asked for.
 * - Values of soft-deleted structured properties are left out (spec 3.2).
 */
export class EntityReads {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: AccessPolicy,
  ) {}

  /** One entity's latest aspects (all, or those named); 403 when the actor may not read it. */
  async latest(ctx: RequestContext, urn: string, aspects?: readonly string[]): Promise<Aspects> {
    await this.policy.readEntity(ctx, urn);
    const names = namesReadableBy(ctx, aspects);
    if (names !== undefined && names.length === 0) return [];
    return this.visible(ctx, [await this.store.getLatest(urn, names)]).then((lists) => lists[0]!);
  }

  /** Several entities' latest aspects; 403 on the first the actor may not read (a batch get). */
  async latestOfEach(
    ctx: RequestContext,
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<AspectsByUrn> {
    for (const urn of urns) await this.policy.readEntity(ctx, urn);
    return this.read(ctx, urns, aspects);
  }

  /**
   * The entities of a page (a list, a scroll, search hits) the actor may read, with their aspects: the
   * others are left out of the returned map, and of `urns`.
   */
  async latestOfReadable(
    ctx: RequestContext,
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<{ readonly urns: readonly string[]; readonly aspects: AspectsByUrn }> {
    const readable = await this.policy.readable(ctx, urns);
    return { urns: readable, aspects: await this.read(ctx, readable, aspects) };
  }

  /** Those of `urns` the actor may read, in order (for pages that return urns only). */
  readable(ctx: RequestContext, urns: readonly string[]): Promise<readonly string[]> {
    return this.policy.readable(ctx, urns);
  }

  /**
   * Whether the entity's key aspect is stored; a soft-deleted entity (status.removed) counts unless
   * `includeSoftDeleted` is false. Asks the EXISTS privileges, not READ.
   */
  async exists(
    ctx: RequestContext,
    urn: string,
    entity: { readonly keyAspect: string; readonly hasStatus: boolean },
    includeSoftDeleted: boolean,
  ): Promise<boolean> {
    await this.policy.entityExists(ctx, urn);
    const names = entity.hasStatus ? [entity.keyAspect, 'status'] : [entity.keyAspect];
    const stored = await this.store.getLatest(urn, names);
    const key = stored.some((a) => a.aspect === entity.keyAspect);
    const removed = stored.some((a) => a.aspect === 'status' && a.value['removed'] === true);
    return key && (includeSoftDeleted || !removed);
  }

  /** One version of one aspect (0 the latest), or null; 403 for a restricted aspect or an unreadable entity. */
  async version(
    ctx: RequestContext,
    urn: string,
    aspect: string,
    version: number,
  ): Promise<StoredAspect | null> {
    await this.policy.readEntity(ctx, urn);
    requireUnrestricted(ctx, aspect);
    const stored = await this.store.get(urn, aspect, version);
    if (stored === null) return null;
    return (await this.visible(ctx, [[stored]]))[0]![0] ?? null;
  }

  /** Every stored version of one aspect, newest first as the store lists them. */
  async versions(ctx: RequestContext, urn: string, aspect: string): Promise<Aspects> {
    await this.policy.readEntity(ctx, urn);
    requireUnrestricted(ctx, aspect);
    return (await this.visible(ctx, [await this.store.listVersions(urn, aspect)]))[0]!;
  }

  private async read(
    ctx: RequestContext,
    urns: readonly string[],
    aspects: readonly string[] | undefined,
  ): Promise<AspectsByUrn> {
    const names = namesReadableBy(ctx, aspects);
    if (urns.length === 0 || (names !== undefined && names.length === 0)) return new Map();
    const found = await this.store.getLatestMany(urns, names);
    const lists = urns.map((urn) => found.get(urn) ?? []);
    const visible = await this.visible(ctx, lists);
    return new Map(urns.map((urn, i) => [urn, visible[i]!]));
  }

  /** What leaves the store: restricted aspects dropped (unless the system asks), soft-deleted values hidden. */
  private visible(ctx: RequestContext, lists: readonly Aspects[]): Promise<readonly Aspects[]> {
    return visibleToActor(ctx, this.store, lists);
  }
}

function requireUnrestricted(ctx: RequestContext, aspect: string): void {
  if (!ctx.authentication.isSystem && isRestrictedAspect(aspect)) {
    throw new ForbiddenError(`${aspect} holds secret material and is not returned`);
  }
}
