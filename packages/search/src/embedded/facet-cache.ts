/**
 * Results of unrestricted reads (facet counts and totals of `*` searches, unfiltered browse pages), the
 * landing-page queries, kept per entity type until a write to it.
 *
 * Bounded by the rows it holds, not by its entries: a browse page lists every group under its path,
 * and at a million datasets a database's page held about 4,000 groups, so a thousand such pages held
 * four million objects (120 MiB of heap, measured). Entries are weighed when stored (weightOf) and the
 * least recently used go first once the total passes `maxWeight`; a result heavier than that alone is
 * returned without being kept.
 */
export class FacetCache {
  private readonly generations = new Map<string, number>();
  /** In least recently used order (a hit moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  private weight = 0;

  /** `dataVersion` reads SQLite's `PRAGMA data_version`, which moves when another connection commits. */
  constructor(
    private readonly dataVersion: () => number,
    private readonly maxWeight = DEFAULT_MAX_WEIGHT,
  ) {}

  /** Forgets the entity type's cached counts (called on every write to it). */
  invalidate(entityType: string): void {
    this.generations.set(entityType, (this.generations.get(entityType) ?? 0) + 1);
  }

  get<T>(entityType: string, key: string, compute: () => T): T {
    const generation = this.generations.get(entityType) ?? 0;
    const version = this.dataVersion();
    const cacheKey = `${entityType}\u0000${key}`;
    const cached = this.entries.get(cacheKey);
    if (cached !== undefined) {
      this.remove(cacheKey, cached);
      if (cached.generation === generation && cached.version === version) {
        this.entries.set(cacheKey, cached);
        this.weight += cached.weight;
        return cached.value as T;
      }
    }
    const value = compute();
    const weight = weightOf(value);
    if (weight > this.maxWeight) return value;
    for (const [oldest, entry] of this.entries) {
      if (this.weight + weight <= this.maxWeight) break;
      this.remove(oldest, entry);
    }
    this.entries.set(cacheKey, { generation, version, value, weight });
    this.weight += weight;
    return value;
  }

  /** How many rows the cache holds (its entries' weights), for tests and reports. */
  get heldWeight(): number {
    return this.weight;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}

interface Entry {
  readonly generation: number;
  readonly version: number;
  readonly value: unknown;
  readonly weight: number;
}

/**
 * Rows held by the cache at most, counted by weightOf: about 100 bytes each (a group's name and count,
 * a facet value and count), so some 20 MiB.
 */
const DEFAULT_MAX_WEIGHT = 200_000;

/**
 * A cached value's size in rows: one per element of an array or entry of a map, and for an object,
 * one plus its array members' elements (a browse page: its groups and entities).
 */
export function weightOf(value: unknown): number {
  if (Array.isArray(value)) return Math.max(1, value.length);
  if (value instanceof Map) return Math.max(1, value.size);
  if (typeof value === 'object' && value !== null) {
    let rows = 1;
    for (const member of Object.values(value)) if (Array.isArray(member)) rows += member.length;
    return rows;
  }
  return 1;
}

export interface FacetRow {
  readonly value: string | number;
  readonly n: number;
}
