import type { EntitySpec } from '@catalog/model';
import type { Edge } from './port.js';
import { valuesAtPath } from './values-at-path.js';

/**
 * The graph edges an aspect value declares through its relationship annotations; each points from
 * `urn` to a URN found at the annotation's path. Non-URN values are skipped; a (relationship, target)
 * pair declared twice (e.g. `inputs` and `inputEdges`) is one edge. Unknown aspects declare none.
 */
export function edgesFor(
  entity: EntitySpec,
  urn: string,
  aspectName: string,
  value: Readonly<Record<string, unknown>>,
  created?: { readonly time: number; readonly actor?: string },
): Edge[] {
  const aspect = entity.aspects.get(aspectName);
  // Restricted aspects declare no relationships today; should one, it still reveals nothing.
  if (aspect === undefined || aspect.restricted) return [];
  const seen = new Set<string>();
  const edges: Edge[] = [];
  for (const relationship of aspect.relationships) {
    for (const target of valuesAtPath(value, relationship.path)) {
      if (typeof target !== 'string' || !target.startsWith('urn:')) continue;
      const key = `${relationship.name}\u0000${target}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({
        source: urn,
        relationship: relationship.name,
        target,
        aspect: aspectName,
        ...(created === undefined ? {} : { createdAt: created.time }),
        ...(created?.actor === undefined ? {} : { createdActor: created.actor }),
      });
    }
  }
  return edges;
}
