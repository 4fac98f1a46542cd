import { entityRegistry, parseUrn } from '@catalog/model';
import type { ApplyResult, AspectStore, AspectWrite, AuditStamp, StoredAspect } from '@catalog/store';

export const VERSION_PROPERTIES = 'versionProperties';
const VERSION_SET_PROPERTIES = 'versionSetProperties';

/** One write the side effects of a stored `versionProperties` make, with its entity type. */
export interface VersionSetWrite {
  readonly entityType: string;
  readonly write: AspectWrite;
}

/**
 * The writes that keep a version set consistent after an entity's `versionProperties` was stored (the
 * ecosystem's versioning side effects): the version with the greatest `sortId` of the set is its
 * latest. When the written entity becomes the latest (the set is new, had none, or its latest sorts
 * lower or is the entity itself), the set's `versionSetProperties` name it (created with the key and the
 * entity's versioningScheme when absent; an existing scheme is kept), its `isLatest` is true and the
 * previous latest's false; otherwise its `isLatest` is false. Only writes that change something are
 * returned. `requestId` makes them idempotent when a batch is redelivered.
 */
export async function versionSetWrites(
  store: AspectStore,
  entityType: string,
  stored: StoredAspect,
  requestId: string,
  created: AuditStamp,
): Promise<VersionSetWrite[]> {
  const props = stored.value;
  const setUrn = props['versionSet'];
  if (typeof setUrn !== 'string') return [];
  const entity = stored.urn;
  const setValue = (await store.getLatestMany([setUrn], [VERSION_SET_PROPERTIES])).get(setUrn)?.[0]?.value;
  const latest = typeof setValue?.['latest'] === 'string' ? setValue['latest'] : undefined;
  let becomesLatest = latest === undefined || latest === entity;
  let previous: StoredAspect | undefined;
  if (!becomesLatest && latest !== undefined) {
    previous = (await store.getLatestMany([latest], [VERSION_PROPERTIES])).get(latest)?.[0];
    const previousSort = previous?.value['sortId'];
    becomesLatest =
      previous === undefined ||
      typeof previousSort !== 'string' ||
      String(props['sortId'] ?? '') > previousSort;
  }
  const writes: VersionSetWrite[] = [];
  let n = 0;
  const write = (type: string, urn: string, aspect: string, value: Record<string, unknown>): void => {
    const key = entityRegistry.keyAspectFromUrn(parseUrn(urn));
    writes.push({
      entityType: type,
      write: {
        requestId: `${requestId}#version-set-${n++}`,
        mode: 'UPSERT',
        urn,
        aspect,
        value,
        created,
        keyAspect: { name: key.name, value: key.value },
      },
    });
  };
  if (becomesLatest) {
    if (latest !== entity || setValue?.['versioningScheme'] === undefined) {
      const scheme = setValue?.['versioningScheme'] ?? props['versioningScheme'];
      write('versionSet', setUrn, VERSION_SET_PROPERTIES, {
        ...(setValue ?? {}),
        latest: entity,
        ...(scheme === undefined ? {} : { versioningScheme: scheme }),
      });
    }
    if (previous !== undefined && previous.value['isLatest'] !== false)
      write(entityType, previous.urn, VERSION_PROPERTIES, { ...previous.value, isLatest: false });
  }
  if (props['isLatest'] !== becomesLatest)
    write(entityType, entity, VERSION_PROPERTIES, { ...props, isLatest: becomesLatest });
  return writes;
}

/** Whether an applied write stored a new `versionProperties` value (what has side effects). */
export function storedVersionProperties(write: AspectWrite, result: ApplyResult): StoredAspect | undefined {
  if (write.aspect !== VERSION_PROPERTIES || (write.mode !== 'UPSERT' && write.mode !== 'CREATE'))
    return undefined;
  if (result.status !== 'CREATED' && result.status !== 'UPDATED') return undefined;
  return result.current;
}
