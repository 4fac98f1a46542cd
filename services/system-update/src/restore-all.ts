import { EntityProjector, type EntityChange } from '@catalog/projection';
import type { GraphIndex, SearchIndex } from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { Logger } from '@catalog/runtime';
import type { StructuredPropertySettings } from '@catalog/model';

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
  readonly durationMs: number;
  readonly aspectsPerSecond: number;
}

/**
 * Rebuilds entity documents and edges for every stored entity, straight from the store in its scan
 * order (no trip through the change log). Time-series documents live only in their index and are not
 * restorable from the store.
 */
export async function restoreAll(
  deps: { store: AspectStore; search: SearchIndex; graph: GraphIndex; logger: Logger },
  options: RestoreOptions,
): Promise<RestoreReport> {
  const projector = new EntityProjector(deps.store, deps.search, deps.graph, {
    logger: deps.logger,
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
    }
    if (!page.next) break;
    after = page.next;
  }
  await Promise.all([deps.search.refresh(), deps.graph.refresh()]);
  const durationMs = performance.now() - started;
  return {
    aspects,
    entities,
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
