/** A typed array indexed by document id (or another dense id) that grows as ids do. */
export type GrowableArray = Int32Array | Uint8Array | Uint16Array | Float32Array | Float64Array;

/**
 * How much larger than needed a grown array is made: a quarter. Growth stays amortized (each element is
 * copied about four times in all), while the slack past the largest id averages an eighth instead of
 * the half that doubling leaves: at a million documents these arrays are most of the search side's
 * memory (several per document id), so doubling held tens of MiB of zeros.
 */
const SLACK = 1.25;

/** The array itself when `index` fits, else a copy with room for `index` and a quarter more. */
export function grown<T extends GrowableArray>(array: T, index: number): T {
  if (index < array.length) return array;
  return resized(array, Math.max(1024, Math.ceil((index + 1) * SLACK)));
}

/** The array itself when it holds `size` elements or more, else a copy of exactly `size` elements. */
export function resized<T extends GrowableArray>(array: T, size: number): T {
  if (array.length >= size) return array;
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}
