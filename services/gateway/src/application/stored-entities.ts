import type { AspectStore } from '@catalog/store';

type Json = Readonly<Record<string, unknown>>;

/** An entity's latest aspect values by aspect name; empty when nothing is stored. */
export type StoredValues = ReadonlyMap<string, Json>;

/**
 * What the administrative use cases read of the store to decide (does the entity exist, what does its
 * aspect say now) and the few small entity types they list whole (tokens, policies, sources, tests).
 * Nothing read here is returned to a caller as is: results go out through the use case's own shapes.
 */
export class StoredEntities {
  constructor(private readonly store: AspectStore) {}

  async exists(urn: string): Promise<boolean> {
    return (await this.store.existingUrns([urn])).has(urn);
  }

  /** Those of `urns` that do not exist, in order. */
  async missing(urns: readonly string[]): Promise<string[]> {
    if (urns.length === 0) return [];
    const existing = await this.store.existingUrns(urns);
    return urns.filter((urn) => !existing.has(urn));
  }

  async values(urn: string): Promise<StoredValues> {
    return new Map((await this.store.getLatest(urn)).map((a) => [a.aspect, a.value]));
  }

  async aspect<T = Json>(urn: string, aspect: string): Promise<T | undefined> {
    const [stored] = await this.store.getLatest(urn, [aspect]);
    return stored?.value as T | undefined;
  }

  /** Every stored value of one aspect of an entity type, with its urn (for types of a few hundred). */
  async all(entityType: string, aspect: string): Promise<{ urn: string; info: Json }[]> {
    const found: { urn: string; info: Json }[] = [];
    let after: string | undefined;
    do {
      const page = await this.store.scan({
        aspect,
        urnLike: `urn:li:${entityType}:%`,
        limit: 500,
        ...(after === undefined ? {} : { after }),
      });
      for (const item of page.items) found.push({ urn: item.urn, info: item.value });
      after = page.next;
    } while (after !== undefined);
    return found;
  }
}
