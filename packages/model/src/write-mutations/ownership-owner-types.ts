/** The owner type of an owner with neither a type urn nor a type (the ecosystem's default). */
export const DEFAULT_OWNERSHIP_TYPE_URN = 'urn:li:ownershipType:__system__none';

type Json = Record<string, unknown>;

/**
 * An `ownership` value with `ownerTypes` materialized from its owners, as the ecosystem's write hook
 * keeps it: owner type urn (its `.` written `%2E`, a map key) to the owners of that type, each once. An
 * owner's type is its `typeUrn`, else `urn:li:ownershipType:__system__<type in lower case>`, else the
 * default type. The map is server-managed: whatever the writer sent is replaced; a value without owners
 * is kept as it is. The value is returned unchanged (the same object) when the map is already right.
 */
export function withOwnerTypes(value: Json): Json {
  const owners = Array.isArray(value['owners']) ? (value['owners'] as unknown[]) : [];
  if (owners.length === 0) return value;
  const byType = new Map<string, string[]>();
  for (const owner of owners) {
    if (owner === null || typeof owner !== 'object') continue;
    const { owner: urn, type, typeUrn } = owner as Json;
    if (typeof urn !== 'string') continue;
    const key = encodeFieldName(ownerTypeUrn(typeUrn, type));
    const list = byType.get(key) ?? [];
    if (!list.includes(urn)) list.push(urn);
    byType.set(key, list);
  }
  const ownerTypes = Object.fromEntries(byType);
  if (sameOwnerTypes(value['ownerTypes'], ownerTypes)) return value;
  return { ...value, ownerTypes };
}

function ownerTypeUrn(typeUrn: unknown, type: unknown): string {
  if (typeof typeUrn === 'string' && typeUrn !== '') return typeUrn;
  if (typeof type === 'string' && type !== '') return `urn:li:ownershipType:__system__${type.toLowerCase()}`;
  return DEFAULT_OWNERSHIP_TYPE_URN;
}

function encodeFieldName(value: string): string {
  return value.replaceAll('.', '%2E');
}

/** Same keys, and for each the same owners in any order. */
function sameOwnerTypes(stored: unknown, wanted: Record<string, string[]>): boolean {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return false;
  const storedEntries = Object.entries(stored as Json);
  if (storedEntries.length !== Object.keys(wanted).length) return false;
  return storedEntries.every(([key, owners]) => {
    const want = wanted[key];
    if (want === undefined || !Array.isArray(owners) || owners.length !== want.length) return false;
    return want.every((urn) => owners.includes(urn));
  });
}
