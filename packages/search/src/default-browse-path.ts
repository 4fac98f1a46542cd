import { parseUrn } from '@catalog/model';

/**
 * The browse path an entity gets when it has no browsePaths aspect, derived from its URN as the
 * ecosystem does; the last segment names the entity:
 * - dataset `(urn:li:dataPlatform:<p>,<name>,<ORIGIN>)` → `/<origin lowercased>/<p>/<name split on '.'>`
 *   (`/prod/hive/db/orders` for `db.orders`),
 * - chart / dashboard `(<tool>,<id>)` → `/<tool>/<id>`,
 * - dataFlow `(<orchestrator>,<flow>,<cluster>)` → `/<orchestrator>/<cluster>/<flow>`,
 * - dataJob `(<flow urn>,<job>)` → the flow's path plus `/<job>`.
 * Other entity types get none (undefined). Empty name parts are dropped; `/` inside a part is kept
 * as a separator.
 */
export function defaultBrowsePath(urn: string): string | undefined {
  let parsed;
  try {
    parsed = parseUrn(urn);
  } catch {
    return undefined;
  }
  const parts = parsed.parts;
  switch (parsed.entityType) {
    case 'dataset': {
      const [platformUrn, name, origin] = parts;
      if (platformUrn === undefined || name === undefined || origin === undefined) return undefined;
      const platform = platformUrn.startsWith('urn:li:dataPlatform:')
        ? platformUrn.slice('urn:li:dataPlatform:'.length)
        : platformUrn;
      return joinPath([origin.toLowerCase(), platform, ...name.split('.')]);
    }
    case 'chart':
    case 'dashboard': {
      const [tool, id] = parts;
      return tool === undefined || id === undefined ? undefined : joinPath([tool, id]);
    }
    case 'dataFlow': {
      const [orchestrator, flow, cluster] = parts;
      if (orchestrator === undefined || flow === undefined || cluster === undefined) return undefined;
      return joinPath([orchestrator, cluster, flow]);
    }
    case 'dataJob': {
      const [flowUrn, job] = parts;
      if (flowUrn === undefined || job === undefined) return undefined;
      const flowPath = defaultBrowsePath(flowUrn);
      return flowPath === undefined ? undefined : `${flowPath}${joinPath([job])}`;
    }
    default:
      return undefined;
  }
}

function joinPath(segments: readonly string[]): string | undefined {
  const kept = segments.flatMap((s) => s.split('/')).filter((s) => s !== '');
  return kept.length === 0 ? undefined : `/${kept.join('/')}`;
}

/** A browse path in canonical form: leading `/`, no trailing or doubled `/`; the root is ``. */
export function normalizeBrowsePath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return segments.length === 0 ? '' : `/${segments.join('/')}`;
}
