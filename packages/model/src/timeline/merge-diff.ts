import type { ChangeEvent, ChangeOperation } from './change-event.js';
import { compareJava } from './aspect-values.js';

/**
 * Both lists sorted by key and walked together: a key only in `base` is a REMOVE, one only in `target`
 * an ADD (the ecosystem's sorted merge, so events come in key order, removals before additions of a
 * greater key).
 */
export function sortedMergeDiff<T>(
  base: readonly T[],
  target: readonly T[],
  key: (item: T) => string,
  event: (item: T, operation: ChangeOperation) => ChangeEvent,
): ChangeEvent[] {
  const byKey = (a: T, b: T) => compareJava(key(a), key(b));
  const from = [...base].sort(byKey);
  const to = [...target].sort(byKey);
  const events: ChangeEvent[] = [];
  let b = 0;
  let t = 0;
  while (b < from.length && t < to.length) {
    const cmp = compareJava(key(from[b] as T), key(to[t] as T));
    if (cmp === 0) {
      b++;
      t++;
    } else if (cmp < 0) events.push(event(from[b++] as T, 'REMOVE'));
    else events.push(event(to[t++] as T, 'ADD'));
  }
  while (b < from.length) events.push(event(from[b++] as T, 'REMOVE'));
  while (t < to.length) events.push(event(to[t++] as T, 'ADD'));
  return events;
}
