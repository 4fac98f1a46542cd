/**
 * Results of unrestricted reads (facet counts and totals of `*` searches, unfiltered browse pages), the
 * landing-page queries, kept per entity type until a write to it.
 */
export class FacetCache {
  private readonly generations = new Map<string, number>();
  private readonly entries = new Map<string, { generation: number; version: number; value: unknown }>();

  /** `dataVersion` reads SQLite's `PRAGMA data_version`, which moves when another connection commits. */
  constructor(private readonly dataVersion: () => number) {}

  /** Forgets the entity type's cached counts (called on every write to it). */
  invalidate(entityType: string): void {
    this.generations.set(entityType, (this.generations.get(entityType) ?? 0) + 1);
  }

  get<T>(entityType: string, key: string, compute: () => T): T {
    const generation = this.generations.get(entityType) ?? 0;
    const version = this.dataVersion();
    const cacheKey = `${entityType}\u0000${key}`;
    const cached = this.entries.get(cacheKey);
    if (cached !== undefined && cached.generation === generation && cached.version === version)
      return cached.value as T;
    const value = compute();
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(cacheKey, { generation, version, value });
    return value;
  }
}

/** Bound on cached results; browse pages of many paths must not grow it without limit. */
const MAX_ENTRIES = 1_000;

export interface FacetRow {
  readonly value: string | number;
  readonly n: number;
}
