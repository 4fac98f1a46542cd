import type { EntitySpec } from '../types.js';
import { parseUrn } from '../urn.js';
import { validateAspect } from '../validate.js';

/** An aspect value the catalog writes with a new entity. */
export interface DefaultAspect {
  readonly name: string;
  readonly value: Record<string, unknown>;
}

/**
 * The aspects the ecosystem writes when an entity is created, besides its key, for the entity types that
 * carry them: `browsePathsV2` (a dataset's folders are the parts of its name before the last, split on
 * `.`; otherwise one `Default` folder), `dataPlatformInstance` (the platform the key names, for the
 * types whose key has one) and, for a dataset whose name has capitals, `aliases` with its lowercased urn.
 * Each value fits its aspect's schema.
 */
export function defaultAspectsFor(
  entity: EntitySpec,
  key: Readonly<Record<string, unknown>>,
): DefaultAspect[] {
  const defaults: DefaultAspect[] = [];
  const browse = entity.aspects.get('browsePathsV2');
  if (browse !== undefined) {
    const folders = entity.name === 'dataset' ? datasetFolders(key) : [];
    const value = { path: (folders.length > 0 ? folders : ['Default']).map((id) => ({ id })) };
    const checked = validateAspect(browse, value);
    if (checked.ok) defaults.push({ name: browse.name, value: checked.value });
  }
  const instance = entity.aspects.get('dataPlatformInstance');
  const platform = instance === undefined ? undefined : platformOf(entity.name, key);
  if (instance !== undefined && platform !== undefined) {
    const checked = validateAspect(instance, { platform });
    if (checked.ok) defaults.push({ name: instance.name, value: checked.value });
  }
  const aliases = entity.name === 'dataset' ? entity.aspects.get('aliases') : undefined;
  const lowercasedUrn = aliases === undefined ? undefined : lowercasedDatasetUrn(key);
  if (aliases !== undefined && lowercasedUrn !== undefined) {
    const checked = validateAspect(aliases, { lowercasedUrn });
    if (checked.ok) defaults.push({ name: aliases.name, value: checked.value });
  }
  return defaults;
}

/**
 * A dataset's case-insensitive key (the ecosystem's `aliases.lowercasedUrn`): its name lowercased, the
 * platform and origin as they are; undefined when the name is lowercase already (the ecosystem writes no
 * alias then, so a lookup matches `urn` or `lowercasedUrn`).
 */
function lowercasedDatasetUrn(key: Readonly<Record<string, unknown>>): string | undefined {
  const { platform, name, origin } = key;
  if (typeof platform !== 'string' || typeof name !== 'string' || typeof origin !== 'string')
    return undefined;
  const lower = name.toLowerCase();
  return lower === name ? undefined : `urn:li:dataset:(${platform},${lower},${origin})`;
}

function datasetFolders(key: Readonly<Record<string, unknown>>): string[] {
  const name = typeof key['name'] === 'string' ? key['name'] : '';
  return name
    .split('.')
    .slice(0, -1)
    .filter((part) => part !== '');
}

const PLATFORM_IN_KEY = new Set([
  'dataset',
  'mlModel',
  'mlFeatureTable',
  'mlModelDeployment',
  'mlModelGroup',
]);

/** The platform a new entity's key names, as the ecosystem derives it; undefined for other types. */
function platformOf(entityType: string, key: Readonly<Record<string, unknown>>): string | undefined {
  const text = (field: string): string | undefined =>
    typeof key[field] === 'string' && key[field] !== '' ? (key[field] as string) : undefined;
  const platformUrn = (name: string | undefined): string | undefined =>
    name === undefined ? undefined : `urn:li:dataPlatform:${name.toLowerCase()}`;
  if (PLATFORM_IN_KEY.has(entityType)) return text('platform');
  switch (entityType) {
    case 'chart':
    case 'dashboard':
      return platformUrn(text('dashboardTool'));
    case 'dataFlow':
    case 'dataProcess':
      return platformUrn(text('orchestrator'));
    case 'dataJob': {
      const flow = text('flow');
      return flow === undefined ? undefined : platformUrn(parseUrn(flow).parts[0]);
    }
    default:
      return undefined;
  }
}
