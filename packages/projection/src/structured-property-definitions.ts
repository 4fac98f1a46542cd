import {
  structuredPropertyFieldName,
  structuredValueTypeOf,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';

export const STRUCTURED_PROPERTY_ENTITY = 'structuredProperty';
export const DEFINITION_ASPECT = 'propertyDefinition';
export const STATUS_ASPECT = 'status';

/**
 * A structured property as search needs it, from its stored aspects (propertyDefinition and status);
 * undefined when it has no usable definition. A versioned definition's `versionSince` is the audit time
 * of the oldest stored definition in the newest run carrying that version (the store keeps every
 * version), so a rebuild from the store finds the same time the first indexing did.
 */
export async function definitionFromStore(
  store: AspectStore,
  urn: string,
  aspects: readonly StoredAspect[],
): Promise<StructuredPropertySearchDefinition | undefined> {
  const stored = aspects.find((a) => a.aspect === DEFINITION_ASPECT);
  if (stored === undefined) return undefined;
  const { qualifiedName, valueType } = stored.value;
  if (typeof qualifiedName !== 'string' || typeof valueType !== 'string') return undefined;
  const version = versionOf(stored.value);
  const removed = aspects.find((a) => a.aspect === STATUS_ASPECT)?.value['removed'] === true;
  const base = { urn, qualifiedName, valueType: structuredValueTypeOf(valueType), removed };
  if (version === undefined) return base;
  return { ...base, version, versionSince: await versionSince(store, urn, version, stored) };
}

function versionOf(value: Readonly<Record<string, unknown>>): string | undefined {
  const version = value['version'];
  return typeof version === 'string' && version !== '' ? version : undefined;
}

async function versionSince(
  store: AspectStore,
  urn: string,
  version: string,
  latest: StoredAspect,
): Promise<number> {
  let since = latest.created.time;
  for (const stored of await store.listVersions(urn, DEFINITION_ASPECT)) {
    if (versionOf(stored.value) !== version) break;
    since = stored.created.time;
  }
  return since;
}

/** Whether two definitions give their values the same document field and the same values. */
export function sameIndexing(
  a: StructuredPropertySearchDefinition | undefined,
  b: StructuredPropertySearchDefinition | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    structuredPropertyFieldName(a) === structuredPropertyFieldName(b) &&
    a.valueType === b.valueType &&
    a.versionSince === b.versionSince
  );
}

/** Whether the view holds the definition as it is (indexing and soft-delete state). */
export function sameDefinition(
  a: StructuredPropertySearchDefinition | undefined,
  b: StructuredPropertySearchDefinition | undefined,
): boolean {
  return sameIndexing(a, b) && a?.removed === b?.removed && a?.qualifiedName === b?.qualifiedName;
}
