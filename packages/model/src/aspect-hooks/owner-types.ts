/**
 * The ecosystem materializes, on every write of an `ownership` aspect, its `ownerTypes`: the owners
 * grouped by ownership type urn (the owner's `typeUrn`, else `urn:li:ownershipType:__system__<type>`
 * of its `type`, else the `__system__none` type), each urn's dots encoded as `%2E` (a map key). A value
 * without owners is left as written.
 */
export const DEFAULT_OWNERSHIP_TYPE_URN = 'urn:li:ownershipType:__system__none';

type Json = Readonly<Record<string, unknown>>;

function typeUrnOf(owner: Json): string {
  if (typeof owner['typeUrn'] === 'string') return owner['typeUrn'];
  if (typeof owner['type'] === 'string')
    return `urn:li:ownershipType:__system__${owner['type'].toLowerCase()}`;
  return DEFAULT_OWNERSHIP_TYPE_URN;
}

/** The ownership value with its `ownerTypes` materialized from its owners. */
export function withOwnerTypes(value: Json): Json {
  const owners = Array.isArray(value['owners']) ? (value['owners'] as unknown[]) : [];
  const grouped = new Map<string, string[]>();
  for (const owner of owners) {
    if (typeof owner !== 'object' || owner === null) continue;
    const urn = (owner as Json)['owner'];
    if (typeof urn !== 'string') continue;
    const key = typeUrnOf(owner as Json).replaceAll('.', '%2E');
    const list = grouped.get(key) ?? [];
    if (!list.includes(urn)) list.push(urn);
    grouped.set(key, list);
  }
  if (grouped.size === 0) return value;
  return { ...value, ownerTypes: Object.fromEntries(grouped) };
}
