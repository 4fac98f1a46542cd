/**
 * The values found at an annotation path inside an aspect value: segments joined by `/`, `*` for every
 * element of an array (or every value of a map), `$key` for every key of a map. An array at the end of
 * the path yields its elements; absent steps yield nothing.
 */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  const segments = path.split('/').filter((s) => s !== '');
  let current: unknown[] = [value];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const item of current) {
      if (segment === '*') {
        if (Array.isArray(item)) next.push(...(item as unknown[]));
        else if (isMap(item)) next.push(...Object.values(item));
        continue;
      }
      if (!isMap(item)) continue;
      if (segment === '$key') {
        next.push(...Object.keys(item));
        continue;
      }
      const child = item[segment];
      if (child !== undefined && child !== null) next.push(child);
    }
    current = next;
  }
  return current.flatMap((item) => (Array.isArray(item) ? (item as unknown[]) : [item]));
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
