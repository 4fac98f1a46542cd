import { setImmediate as nextTurn } from 'node:timers/promises';
import { EntityProjector, type EntityChange } from '@catalog/projection';
import type { GraphIndex, ProjectionWriter, SearchIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { Logger } from '@catalog/runtime';
import { entityRegistry, type StructuredPropertySettings } from '@catalog/model';

export interface RestoreOptions {
  readonly batchSize: number;
  /** Only aspects of URNs matching this LIKE pattern. */
  readonly urnLike?: string;
  /** The indexer's oversize rule of structured property values, so the documents come out the same. */
  readonly structuredProperties?: StructuredPropertySettings;
}

export interface RestoreReport {
  readonly aspects: number;
  readonly entities: number;
  /** Search documents of entities with nothing stored (hard-deleted) that the restore removed, with their edges. */
  readonly orphans: number;
  readonly durationMs: number;
  readonly aspectsPerSecond: number;
}

/**
 * Rebuilds entity documents and edges for every stored entity, straight from the store in its scan
 * order (no trip through the change log). Time-series documents live only in their index and are not
 * restorable from the store.
 */
export async function restoreAll(
  deps: {
    store: AspectStore;
    search: SearchIndex;
    graph: GraphIndex;
    projection?: ProjectionWriter;
    logger: Logger;
  },
  options: RestoreOptions,
): Promise<RestoreReport> {
  const projector = new EntityProjector(deps.store, deps.search, deps.graph, {
    logger: deps.logger,
    ...(deps.projection ? { writer: deps.projection } : {}),
    ...(options.structuredProperties ? { structuredProperties: options.structuredProperties } : {}),
  });
  const started = performance.now();
  let aspects = 0;
  let entities = 0;
  let after: string | undefined;
  let lastReport = started;
  for (;;) {
    const page = await deps.store.scan({
      limit: options.batchSize,
      ...(after ? { after } : {}),
      ...(options.urnLike ? { urnLike: options.urnLike } : {}),
    });
    if (page.items.length === 0) break;
    const byUrn = groupByUrn(page.items);
    // The page's last entity may continue on the next page: let the projector read it whole.
    const last = page.items[page.items.length - 1]!.urn;
    const complete = new Map([...byUrn].filter(([urn]) => urn !== last || !page.next));
    const changes: EntityChange[] = [...byUrn.keys()].map((urn) => ({ urn }));
    await projector.project(changes, complete);
    aspects += page.items.length;
    entities += byUrn.size;
    if (performance.now() - lastReport > 5_000) {
      lastReport = performance.now();
      deps.logger.info({ aspects, entities }, 'restoring indices');
      // The embedded adapters never really wait, so without a turn of the event loop the progress lines
      // (written asynchronously) would all come out when the restore ends.
      await nextTurn();
    }
    if (!page.next) break;
    after = page.next;
  }
  await Promise.all([deps.search.refresh(), deps.graph.refresh()]);
  const orphans = await removeOrphans(deps, projector, options.urnLike);
  if (orphans > 0) {
    await Promise.all([deps.search.refresh(), deps.graph.refresh()]);
    deps.logger.info({ orphans }, 'documents of entities with nothing stored removed');
  }
  const durationMs = performance.now() - started;
  return {
    aspects,
    entities,
    orphans,
    durationMs,
    aspectsPerSecond: Math.round((aspects / Math.max(durationMs, 1)) * 1000),
  };
}

function groupByUrn(items: readonly StoredAspect[]): Map<string, StoredAspect[]> {
  const out = new Map<string, StoredAspect[]>();
  for (const item of items) {
    const list = out.get(item.urn);
    if (list) list.push(item);
    else out.set(item.urn, [item]);
  }
  return out;
}

/** Documents read per round while looking for orphans. */
const ORPHAN_PAGE = 1000;

/**
 * The store is the truth: every search document (soft-deleted ones too) of an entity with nothing
 * stored (hard-deleted while the index missed it) is removed, with every edge from or to the entity,
 * by projecting it (the projector removes what an entity without aspects leaves). Only urns matching
 * `urnLike`, when given. Returns how many it removed.
 */
async function removeOrphans(
  deps: { store: AspectStore; search: SearchIndex },
  projector: EntityProjector,
  urnLike: string | undefined,
): Promise<number> {
  const matches = urnLike === undefined ? () => true : likeMatcher(urnLike);
  let removed = 0;
  for (const entity of entityRegistry.entities()) {
    if (!entity.searchable) continue;
    let after: readonly (string | number | boolean | null)[] | '' = '';
    for (;;) {
      const page = await deps.search.search({
        entityTypes: [entity.name],
        input: '*',
        start: 0,
        count: ORPHAN_PAGE,
        includeRemoved: true,
        searchAfter: after,
      });
      const urns = page.hits.map((h) => h.urn).filter(matches);
      if (urns.length > 0) {
        // Whether each is stored at all: reading (and decoding) every aspect of every document's
        // entity only to see that it has one took about a quarter of a restore.
        const stored = await deps.store.existingUrns(urns);
        const orphans = urns.filter((urn) => !stored.has(urn));
        if (orphans.length > 0) {
          await projector.project(orphans.map((urn) => ({ urn })));
          removed += orphans.length;
        }
      }
      const last = page.hits[page.hits.length - 1];
      if (page.hits.length < ORPHAN_PAGE || last?.sortValues === undefined) break;
      after = last.sortValues;
    }
  }
  return removed;
}

/** A SQL LIKE pattern (`%`, `_`, `\` escapes) as a case-sensitive whole-string test. */
function likeMatcher(pattern: string): (value: string) => boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]!);
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += escapeRegExp(c);
  }
  const re = new RegExp(`^${source}$`);
  return (value) => re.test(value);
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
