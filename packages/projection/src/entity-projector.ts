import {
  DEFAULT_STRUCTURED_PROPERTY_SETTINGS,
  entityRegistry,
  parseUrn,
  type EntitySpec,
  type StructuredPropertySettings,
} from '@catalog/model';
import {
  buildEntityDocument,
  edgesFor,
  sequentialProjectionWriter,
  structuredPropertyDocumentFields,
  type EdgeReplacement,
  type EntityDocument,
  type GraphIndex,
  type ProjectionWriter,
  type SearchIndex,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import { STRUCTURED_PROPERTY_ENTITY } from './structured-property-definitions.js';
import { StructuredPropertyView } from './structured-property-view.js';

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

/** The warnings a projection logs (pino-style: context first). */
export interface ProjectorLogger {
  warn(context: Record<string, unknown>, message: string): void;
}

export interface ProjectorOptions {
  /**
   * STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH and STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX:
   * which string values are left out of the index for their size (see structuredPropertyDocumentFields).
   * The indexer and every restore must agree, so that a restore makes the same documents.
   */
  readonly structuredProperties?: Pick<
    StructuredPropertySettings,
    'keywordMaxLength' | 'dropOversizedKeywordValuesFromIndex'
  >;
  readonly logger?: ProjectorLogger;
  /**
   * Writes a batch's documents and edge sets together (one bulk request on OpenSearch); its engine
   * must be the search and graph indices'. Default: through those indices one after the other.
   */
  readonly writer?: ProjectionWriter;
}

const VALUES_ASPECT = 'structuredProperties';
/** Rebuilds a rebuild may cause in turn (a definition changing again meanwhile); then the next change log's. */
const MAX_REBUILD_DEPTH = 2;

/**
 * Projects entities from the aspect store into the read models: their whole search document (from all
 * current aspects, so redelivery and ordering cannot leave a stale mix) and the edges their aspects
 * declare. Incremental indexing and restoring indices both go through here.
 *
 * Structured properties: a structuredProperty entity updates the definitions view first (so the batch's
 * documents see it); documents type their values from the view (falling back to the store, for values
 * met before their definition's change log); and every definition so indexed rebuilds the documents
 * that hold its values without its current field (values indexed before it existed, or under an
 * older version or type), found through their property urns. A definition that changes while
 * documents are built with the old one is caught by reading the view again after the write.
 */
export class EntityProjector {
  private readonly view: StructuredPropertyView;
  private readonly limits: NonNullable<ProjectorOptions['structuredProperties']>;
  private readonly writer: ProjectionWriter;

  constructor(
    private readonly store: AspectStore,
    private readonly search: SearchIndex,
    private readonly graph: GraphIndex,
    private readonly options: ProjectorOptions = {},
  ) {
    this.view = new StructuredPropertyView(store, search);
    this.limits = options.structuredProperties ?? DEFAULT_STRUCTURED_PROPERTY_SETTINGS;
    this.writer = options.writer ?? sequentialProjectionWriter(search, graph);
  }

  /**
   * Re-derives the given entities. `prefetched` holds the current aspects of entities the caller already
   * read completely (a restore's scan page); the others are read from the store.
   */
  project(
    changes: readonly EntityChange[],
    prefetched?: ReadonlyMap<string, readonly StoredAspect[]>,
  ): Promise<ProjectionCounts> {
    return this.projectAt(changes, prefetched, 0);
  }

  private async projectAt(
    changes: readonly EntityChange[],
    prefetched: ReadonlyMap<string, readonly StoredAspect[]> | undefined,
    depth: number,
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
    const fetched = await this.readCurrent(missing);
    const current = (urn: string): readonly StoredAspect[] => prefetched?.get(urn) ?? fetched.get(urn) ?? [];

    const properties = new Map<string, readonly StoredAspect[]>();
    for (const urn of byUrn.keys())
      if (entityOf(urn)?.name === STRUCTURED_PROPERTY_ENTITY) properties.set(urn, current(urn));
    const updated = await this.view.update(properties);
    const assigned = assignedProperties([...byUrn.keys()], current);
    const { definitions, learned } = await this.view.definitionsOf(
      [...new Set([...assigned.values()].flat())],
      updated,
    );

    const upserts: EntityDocument[] = [];
    const deletes: { entityType: string; urn: string }[] = [];
    const edgeSets: EdgeReplacement[] = [];
    /** Entities with nothing stored (hard-deleted): every edge from or to them goes, as the ecosystem's removeNode. */
    const gone: string[] = [];
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
      if (values.size === 0) gone.push(change.urn);
      if (entity.searchable) {
        if (values.size === 0) deletes.push({ entityType: entity.name, urn: change.urn });
        else
          upserts.push(
            buildEntityDocument(entity, change.urn, values, {
              structuredProperties: {
                definitions,
                writtenAt: created.get(VALUES_ASPECT)?.time ?? 0,
                limits: this.limits,
                onOversized: (value) =>
                  this.options.logger?.warn(
                    { urn: change.urn, ...value },
                    'structured property value over the keyword length limit left out of the search index',
                  ),
              },
            }),
          );
      }
      for (const aspect of entity.aspects.values()) {
        if (aspect.relationships.length === 0) continue;
        if (change.aspects && !change.aspects.has(aspect.name)) continue;
        const value = values.get(aspect.name);
        const edges = value ? edgesFor(entity, change.urn, aspect.name, value, created.get(aspect.name)) : [];
        edgeSets.push({ source: change.urn, aspect: aspect.name, edges });
      }
    }
    await this.write(edgeSets, upserts, deletes);
    for (const urn of gone) await this.graph.removeEntity(urn);

    if (depth < MAX_REBUILD_DEPTH)
      await this.rebuildStale(assigned, definitions, [...updated.values(), ...learned], depth);
    return { upserted: upserts.length, deleted: deletes.length, edgeSets: edgeSets.length };
  }

  private async write(
    edges: readonly EdgeReplacement[],
    upserts: readonly EntityDocument[],
    deletes: readonly { entityType: string; urn: string }[],
  ): Promise<void> {
    if (edges.length + upserts.length + deletes.length > 0)
      await this.writer.write({ edges, upserts, deletes });
  }

  /**
   * The current aspects of `urns`, asked for by the aspect names of each one's entity type: that is a read
   * by `_id` for each name, which every MongoDB-wire server answers from its `_id` index, where a read of
   * "every aspect of these urns" scans the collection on some (FerretDB). A proposal can only store
   * versioned aspects of its entity type (time-series ones go to their index, never to the store), so
   * nothing stored is left out. Urns of no known type are read whole.
   */
  private async readCurrent(urns: readonly string[]): Promise<ReadonlyMap<string, readonly StoredAspect[]>> {
    const byType = new Map<EntitySpec | undefined, string[]>();
    for (const urn of urns) {
      const entity = entityOf(urn);
      const group = byType.get(entity);
      if (group === undefined) byType.set(entity, [urn]);
      else group.push(urn);
    }
    const current = new Map<string, readonly StoredAspect[]>();
    for (const [entity, group] of byType) {
      const read = await this.store.getLatestMany(
        group,
        entity === undefined ? undefined : storedAspectNames(entity),
      );
      for (const [urn, aspects] of read) current.set(urn, aspects);
    }
    return current;
  }

  /**
   * Rebuilds the documents whose structured property values are not indexed as the view now says:
   * those of this batch built with a definition that changed meanwhile, and those holding values of a
   * definition this batch indexed or learned but lacking its field (built before it was known, or
   * with another version or type of it).
   */
  private async rebuildStale(
    assigned: ReadonlyMap<string, readonly string[]>,
    definitions: ReadonlyMap<string, StructuredPropertySearchDefinition>,
    settle: readonly StructuredPropertySearchDefinition[],
    depth: number,
  ): Promise<void> {
    const used = new Map<string, StructuredPropertySearchDefinition | undefined>();
    for (const urns of assigned.values()) for (const urn of urns) used.set(urn, definitions.get(urn));
    const changed = new Set(await this.view.changedSince(used));
    const stale = [...assigned]
      .filter(([, urns]) => urns.some((urn) => changed.has(urn)))
      .map(([urn]) => urn);
    if (stale.length > 0)
      await this.projectAt(
        stale.map((urn) => ({ urn })),
        undefined,
        depth + 1,
      );
    for await (const holders of this.view.unsettled(settle))
      await this.projectAt(
        holders.map((urn) => ({ urn })),
        undefined,
        depth + 1,
      );
  }
}

/** The property urns each entity's structuredProperties aspect assigns (entities without any absent). */
function assignedProperties(
  urns: readonly string[],
  current: (urn: string) => readonly StoredAspect[],
): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const urn of urns) {
    const aspect = current(urn).find((a) => a.aspect === VALUES_ASPECT);
    if (aspect === undefined || !entityOf(urn)?.aspects.has(VALUES_ASPECT)) continue;
    const { propertyUrns } = structuredPropertyDocumentFields(aspect.value, undefined);
    if (propertyUrns.length > 0) out.set(urn, propertyUrns);
  }
  return out;
}

function mergeAspects(
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): { aspects?: ReadonlySet<string> } {
  if (!a || !b) return {};
  return { aspects: new Set([...a, ...b]) };
}

/** The names of the aspects of `entity` the store can hold: its versioned ones. */
const storedNames = new WeakMap<EntitySpec, readonly string[]>();
function storedAspectNames(entity: EntitySpec): readonly string[] {
  let names = storedNames.get(entity);
  if (names === undefined) {
    names = [...entity.aspects.values()].filter((a) => a.kind === 'versioned').map((a) => a.name);
    storedNames.set(entity, names);
  }
  return names;
}

function entityOf(urn: string): EntitySpec | undefined {
  try {
    return entityRegistry.getEntity(parseUrn(urn).entityType);
  } catch {
    return undefined;
  }
}
