import DataLoader from 'dataloader';
import type { AspectStore, StoredAspect } from '@catalog/store';

/** An entity's latest aspect values by aspect name; empty when nothing is stored. */
export type AspectValues = ReadonlyMap<string, StoredAspect>;

/**
 * Reads entities for one GraphQL request: every entity a query touches in one tick is read in one
 * `getLatestMany` call, and each is read once per request. `storeCalls` counts the store round trips.
 */
export class EntityLoader {
  storeCalls = 0;
  private readonly loader: DataLoader<string, AspectValues>;

  constructor(store: AspectStore) {
    this.loader = new DataLoader(
      async (urns) => {
        this.storeCalls++;
        const found = await store.getLatestMany(urns);
        return urns.map((urn) => new Map((found.get(urn) ?? []).map((a) => [a.aspect, a])));
      },
      { maxBatchSize: 1000 },
    );
  }

  load(urn: string): Promise<AspectValues> {
    return this.loader.load(urn);
  }

  async aspect<T = Record<string, unknown>>(urn: string, name: string): Promise<T | undefined> {
    return (await this.load(urn)).get(name)?.value as T | undefined;
  }

  /** Forgets what was read for `urn`, after a mutation wrote it. */
  clear(urn: string): void {
    this.loader.clear(urn);
  }
}
