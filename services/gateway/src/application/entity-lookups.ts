import type { RequestContext } from '@catalog/auth';
import { isRestrictedAspect } from '@catalog/model';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import { namesReadableBy, visibleToActor } from './aspect-visibility.js';
import type { EntityReads } from './entity-reads.js';

/** One aspect a batch read item asks for, at a version (0: the latest). */
export interface AspectAsked {
  readonly name: string;
  readonly version: number;
}

/** One item of a batch read: an entity and the aspects it asks for (none: every aspect, latest). */
export interface BatchItem {
  readonly urn: string;
  readonly aspects: readonly AspectAsked[];
}

/** What a batch read item found: its aspects as the actor may see them. */
export interface BatchFound {
  readonly urn: string;
  readonly aspects: readonly StoredAspect[];
}

/**
 * Reads of entities by urn beyond the plain latest read: existence (HEAD), an aspect's numbered
 * version, and the batch reads whose items each ask for their own aspects and versions. Each entity
 * is decided as a single read of it (403 on the first refused); restricted aspects are returned to the
 * system actor only; values of soft-deleted structured properties are hidden.
 */
export class EntityLookups {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: AccessPolicy,
    private readonly entities: EntityReads,
  ) {}

  /**
   * Whether the entity (or one aspect of it) exists and is not soft-deleted; needs the EXISTS
   * privilege, which reveals no aspect value.
   */
  async exists(ctx: RequestContext, urn: string, aspect?: string): Promise<boolean> {
    await this.policy.entityExists(ctx, urn);
    const stored = await this.store.getLatest(urn, aspect === undefined ? undefined : [aspect]);
    const removed = stored.find((a) => a.aspect === 'status')?.value['removed'] === true;
    return stored.length > 0 && !removed;
  }

  /**
   * Version N of an aspect: 0 the latest, 1.. its history; N equal to the latest's own number (its
   * systemMetadata version) is the latest too, as the ecosystem reads it. A restricted aspect is a
   * 403 for anyone but the system actor.
   */
  async aspectVersion(
    ctx: RequestContext,
    urn: string,
    aspect: string,
    version: number,
  ): Promise<StoredAspect | null> {
    const found = await this.entities.version(ctx, urn, aspect, version);
    if (found !== null || version === 0) return found;
    return latestNumbered(await this.entities.versions(ctx, urn, aspect), version);
  }

  /**
   * Batch reads (several groups, e.g. one per entity type of a generic batchGet): each item's aspects
   * at the versions it asked; items that found nothing are left out. A restricted aspect asked by
   * anyone but the system actor is not read.
   */
  async batchGet(
    ctx: RequestContext,
    groups: readonly (readonly BatchItem[])[],
  ): Promise<readonly (readonly BatchFound[])[]> {
    for (const items of groups) for (const item of items) await this.policy.readEntity(ctx, item.urn);
    const found = await Promise.all(groups.map((items) => Promise.all(items.map((i) => this.item(ctx, i)))));
    const lists = found.flatMap((items) => items.map((f) => f.aspects));
    const visible = await visibleToActor(ctx, this.store, lists);
    let next = 0;
    return found.map((items) =>
      items.map((f) => ({ urn: f.urn, aspects: visible[next++]! })).filter((f) => f.aspects.length > 0),
    );
  }

  private async item(ctx: RequestContext, item: BatchItem): Promise<BatchFound> {
    const asked = ctx.authentication.isSystem
      ? item.aspects
      : item.aspects.filter((a) => !isRestrictedAspect(a.name));
    if (item.aspects.length > 0 && asked.length === 0) return { urn: item.urn, aspects: [] };
    const versioned = asked.filter((a) => a.version > 0);
    const latest = asked.filter((a) => a.version === 0).map((a) => a.name);
    const [current, older] = await Promise.all([
      asked.length === 0 || latest.length > 0
        ? this.store.getLatest(item.urn, asked.length === 0 ? undefined : namesReadableBy(ctx, latest))
        : [],
      Promise.all(versioned.map((a) => this.storedVersion(item.urn, a.name, a.version))),
    ]);
    return {
      urn: item.urn,
      aspects: [...current, ...older.flatMap((a) => (a === null ? [] : [a]))],
    };
  }

  /** As aspectVersion, for an entity already decided readable. */
  private async storedVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | null> {
    const found = await this.store.get(urn, aspect, version);
    if (found !== null) return found;
    return latestNumbered(await this.store.listVersions(urn, aspect), version);
  }
}

/**
 * The latest value (versions[0]) when `version` is its own number: its systemMetadata version (the
 * count of values the aspect has had, which a retention does not lower), or for data stored without
 * one, the count of versions kept.
 */
function latestNumbered(versions: readonly StoredAspect[], version: number): StoredAspect | null {
  const latest = versions[0];
  if (latest === undefined) return null;
  const own = latest.systemMetadata?.version;
  const number = typeof own === 'string' && /^[1-9][0-9]{0,14}$/.test(own) ? Number(own) : versions.length;
  return number === version ? latest : null;
}
