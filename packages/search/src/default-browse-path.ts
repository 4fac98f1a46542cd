import { parseUrn } from '@catalog/model';

/**
 * The browse path an entity gets when it has no browsePaths aspect, derived from its URN as the
 * ecosystem derives it (BrowsePathUtils). The path is the folder the entity is listed in, so it does not
 * name the entity itself:
 * - dataset `(urn:li:dataPlatform:<p>,<name>,<ORIGIN>)` → `/<origin>/<p>/<name's parts but the last>`,
 *   lower-cased (`/prod/hive/sales` for `sales.orders`, `/prod/kafka` for `events`),
 * - chart `(<tool>,<id>)` → `/<tool>`; dashboard → `/<tool>` lower-cased,
 * - dataFlow `(<orchestrator>,<flow>,<cluster>)` → `/<orchestrator>/<cluster>` lower-cased,
 * - dataJob `(<flow urn>,<job>)` → its flow's path.
 * Other entity types get none (undefined). Empty name parts are dropped.
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
      const folders = name.includes('.') ? name.split('.').slice(0, -1) : [];
      return joinPath([origin, platform, ...folders])?.toLowerCase();
    }
    case 'chart': {
      const [tool] = parts;
      return tool === undefined ? undefined : joinPath([tool]);
    }
    case 'dashboard': {
      const [tool] = parts;
      return tool === undefined ? undefined : joinPath([tool])?.toLowerCase();
    }
    case 'dataFlow': {
      const [orchestrator, , cluster] = parts;
      if (orchestrator === undefined || cluster === undefined) return undefined;
      return joinPath([orchestrator, cluster])?.toLowerCase();
    }
    case 'dataJob': {
      const [flowUrn] = parts;
      return flowUrn === undefined ? undefined : defaultBrowsePath(flowUrn);
    }
    default:
      return undefined;
  }
}

/**
 * The name an entity is listed under in a browse result: its document's `name` (as the ecosystem lists
 * it), else the name its URN gives it (a dataset's name, otherwise the URN's last id part).
 */
export function browseEntityName(urn: string, name: unknown): string {
  if (typeof name === 'string' && name !== '') return name;
  try {
    const parsed = parseUrn(urn);
    const part = parsed.entityType === 'dataset' ? parsed.parts[1] : parsed.parts[parsed.parts.length - 1];
    return part ?? urn;
  } catch {
    return urn;
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
