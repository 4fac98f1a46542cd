import { entityRegistry, parseUrn, type EntitySpec } from '@catalog/model';
import {
  buildEntityDocument,
  edgesFor,
  type EdgeReplacement,
  type EntityDocument,
  type GraphIndex,
  type SearchIndex,
} from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';

/** What changed for one entity: which aspects to re-derive edges for (all when undefined). */
export interface EntityChange {
  readonly urn: string;
  readonly aspects?: ReadonlySet<string>;
}

export interface ProjectionCounts {
  readonly upserted: number;
  readonly deleted: number;
  readonly edgeSets: number;
}

/**
 * Projects entities from the aspect store into the read models: their whole search document (from all
 * current aspects, so redelivery and ordering cannot leave a stale mix) and the edges their aspects
 * declare. Incremental indexing and restoring indices both go through here.
 */
export class EntityProjector {
  constructor(
    private readonly store: AspectStore,
    private readonly search: SearchIndex,
    private readonly graph: GraphIndex,
  ) {}

  /**
   * Re-derives the given entities. `prefetched` holds the current aspects of entities the caller already
   * read completely (a restore's scan page); the others are read from the store.
   */
  async project(
    changes: readonly EntityChange[],
    prefetched?: ReadonlyMap<string, readonly StoredAspect[]>,
  ): Promise<ProjectionCounts> {
    const byUrn = new Map<string, EntityChange>();
    for (const change of changes) {
      const known = byUrn.get(change.urn);
      byUrn.set(
        change.urn,
        known ? { urn: change.urn, ...mergeAspects(known.aspects, change.aspects) } : change,
      );
    }
    const missing = [...byUrn.keys()].filter((urn) => !prefetched?.has(urn));
    const fetched =
      missing.length > 0
        ? await this.store.getLatestMany(missing)
        : new Map<string, readonly StoredAspect[]>();
    const current = (urn: string): readonly StoredAspect[] => prefetched?.get(urn) ?? fetched.get(urn) ?? [];
    const upserts: EntityDocument[] = [];
    const deletes: { entityType: string; urn: string }[] = [];
    const edgeSets: EdgeReplacement[] = [];
    for (const change of byUrn.values()) {
      const entity = entityOf(change.urn);
      if (!entity) continue;
      const stored = current(change.urn);
      const values = new Map<string, Record<string, unknown>>();
      const created = new Map<string, StoredAspect['created']>();
      for (const a of stored) {
        values.set(a.aspect, a.value as Record<string, unknown>);
        if (!created.has(a.aspect)) created.set(a.aspect, a.created);
      }
      if (entity.searchable) {
        if (values.size === 0) deletes.push({ entityType: entity.name, urn: change.urn });
        else upserts.push(buildEntityDocument(entity, change.urn, values));
      }
      for (const aspect of entity.aspects.values()) {
        if (aspect.relationships.length === 0) continue;
        if (change.aspects && !change.aspects.has(aspect.name)) continue;
        const value = values.get(aspect.name);
        const edges = value ? edgesFor(entity, change.urn, aspect.name, value, created.get(aspect.name)) : [];
        edgeSets.push({ source: change.urn, aspect: aspect.name, edges });
      }
    }
    if (this.graph.replaceEdgesMany) await this.graph.replaceEdgesMany(edgeSets);
    else for (const set of edgeSets) await this.graph.replaceEdges(set.source, set.aspect, set.edges);
    if (upserts.length > 0) await this.search.upsert(upserts);
    if (deletes.length > 0) await this.search.delete(deletes);
    return { upserted: upserts.length, deleted: deletes.length, edgeSets: edgeSets.length };
  }
}

function mergeAspects(
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): { aspects?: ReadonlySet<string> } {
  if (!a || !b) return {};
  return { aspects: new Set([...a, ...b]) };
}

function entityOf(urn: string): EntitySpec | undefined {
  try {
    return entityRegistry.getEntity(parseUrn(urn).entityType);
  } catch {
    return undefined;
  }
}
