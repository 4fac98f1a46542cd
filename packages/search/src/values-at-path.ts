/** Annotation paths split into their segments, once per path (there are a few hundred). */
const segmentsByPath = new Map<string, readonly string[]>();

/**
 * The values found at an annotation path inside an aspect value: segments joined by `/`, `*` for every
 * element of an array (or every value of a map), `$key` for every key of a map. An array at the end of
 * the path yields its elements; absent steps yield nothing.
 *
 * Every document build walks every annotated path of its aspects, so this runs millions of times in a
 * restore: the path is split once, and a walk that finds nothing stops there.
 */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  let segments = segmentsByPath.get(path);
  if (segments === undefined) {
    segments = path.split('/').filter((s) => s !== '');
    segmentsByPath.set(path, segments);
  }
  let current: unknown[] = [value];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const item of current) {
      if (segment === '*') {
        if (Array.isArray(item)) for (const element of item as unknown[]) next.push(element);
        else if (isMap(item)) for (const element of Object.values(item)) next.push(element);
        continue;
      }
      if (!isMap(item)) continue;
      if (segment === '$key') {
        for (const key of Object.keys(item)) next.push(key);
        continue;
      }
      const child = item[segment];
      if (child !== undefined && child !== null) next.push(child);
    }
    if (next.length === 0) return next;
    current = next;
  }
  if (!current.some(Array.isArray)) return current;
  const out: unknown[] = [];
  for (const item of current) {
    if (Array.isArray(item)) for (const element of item as unknown[]) out.push(element);
    else out.push(item);
  }
  return out;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
