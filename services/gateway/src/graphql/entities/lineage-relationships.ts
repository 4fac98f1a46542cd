import { entityRegistry } from '@catalog/model';

/**
 * The relationship names of lineage edges in the registry, split by the way they point: most point
 * upstream (a dataset is DownstreamOf its source; a job Consumes its input), some downstream (a job
 * Produces its output).
 */
export const LINEAGE_RELATIONSHIPS = (() => {
  const upstream = new Set<string>();
  const downstream = new Set<string>();
  for (const entity of entityRegistry.entities())
    for (const spec of entity.aspects.values())
      for (const r of spec.relationships)
        if (r.isLineage === true) (r.isUpstream === false ? downstream : upstream).add(r.name);
  return { upstream: [...upstream].sort(), downstream: [...downstream].sort() } as const;
})();
