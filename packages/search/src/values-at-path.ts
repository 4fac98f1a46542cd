/**
 * The values found at an annotation path inside an aspect value: segments joined by `/`, `*` for every
 * element of an array. An array at the end of the path yields its elements; absent steps yield nothing.
 */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  const segments = path.split('/').filter((s) => s !== '');
  let current: unknown[] = [value];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const item of current) {
      if (segment === '*') {
        if (Array.isArray(item)) next.push(...(item as unknown[]));
        continue;
      }
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const child = (item as Record<string, unknown>)[segment];
      if (child !== undefined && child !== null) next.push(child);
    }
    current = next;
  }
  return current.flatMap((item) => (Array.isArray(item) ? (item as unknown[]) : [item]));
}
