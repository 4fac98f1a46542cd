import type { Logger } from '@catalog/runtime';
import type { SearchIndex } from '@catalog/search';
import { countStructuredPropertyHolders, type AspectStore } from '@catalog/store';

/**
 * The mapping clean-up of hard-deleted structured properties (spec 3.2; ENABLE_STRUCTURED_PROPERTIES_
 * SYSTEM_UPDATE): the search side removes every leftover mapping no document holds a value in, and
 * forgets the properties with none left, which frees their names. A property some entity still holds
 * values of in the store (its asynchronous value removal is not finished) keeps its mappings and its
 * name blocked, even when a rebuilt index holds none of its values: re-creating it would otherwise give
 * those values back to a new definition. Returns what it kept, for the job's report.
 */
export async function cleanupStructuredPropertyMappings(deps: {
  readonly store: AspectStore;
  readonly search: SearchIndex;
  readonly logger: Logger;
}): Promise<{ readonly forgotten: readonly string[]; readonly kept: readonly string[] }> {
  const { store, search, logger } = deps;
  const leftovers = await search.leftoverStructuredProperties();
  if (leftovers.length === 0) {
    logger.info('no hard-deleted structured property has mappings left');
    return { forgotten: [], kept: [] };
  }
  const remaining = await countStructuredPropertyHolders(
    store,
    leftovers.map((p) => p.urn),
  );
  const stillHeld = leftovers.filter((p) => (remaining.get(p.urn) ?? 0) > 0).map((p) => p.urn);
  for (const urn of stillHeld)
    logger.warn(
      { urn, valuesRemaining: remaining.get(urn) },
      'hard-deleted structured property still has values: its mappings and name stay until they are removed',
    );
  const report = await search.cleanupStructuredPropertyMappings({ keep: stillHeld });
  logger.info(report, 'hard-deleted structured properties: leftover mappings cleaned up');
  const kept = [...new Set([...stillHeld, ...report.kept.map((p) => p.urn)])];
  return { forgotten: report.forgotten, kept };
}
