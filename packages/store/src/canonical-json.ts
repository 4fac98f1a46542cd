/**
 * Key-order-insensitive JSON equality for aspect values. A new version is made only when the value
 * really changed, and producers (SDKs, connectors) do not promise a stable key order, so two values
 * that differ only in object key order must count as the same aspect value. Both adapters share it.
 */

/**
 * The JSON text of `value` with object keys sorted recursively (arrays keep their order). Follows
 * JSON.stringify for everything else: `undefined` members are dropped, non-finite numbers become null.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

/**
 * True when `a` and `b` are the same JSON value whatever the key order of their objects: for JSON
 * data, the same answer as comparing canonicalJson texts. Walks both values and stops at the first
 * difference instead of serializing, because it runs on every write of an existing aspect.
 */
export function sameAspectValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameAspectValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (hasToJson(a) || hasToJson(b)) return canonicalJson(a) === canonicalJson(b);
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // Members set to undefined do not exist in JSON, so they are not counted.
  let leftCount = 0;
  for (const key of Object.keys(left)) {
    const value = left[key];
    if (value === undefined) continue;
    leftCount += 1;
    if (!Object.hasOwn(right, key) || !sameAspectValue(value, right[key])) return false;
  }
  let rightCount = 0;
  for (const key of Object.keys(right)) if (right[key] !== undefined) rightCount += 1;
  return leftCount === rightCount;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  // Honour toJSON (e.g. Date) the way JSON.stringify would, before ordering the result.
  const maybeJson = value as { toJSON?: () => unknown };
  if (typeof maybeJson.toJSON === 'function') return sortKeys(maybeJson.toJSON());
  // A null prototype keeps a "__proto__" member an ordinary key instead of a prototype change.
  const sorted = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return sorted;
}
