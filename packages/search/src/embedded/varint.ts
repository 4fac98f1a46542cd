/** Writes `value` (a non-negative integer below 2^53) as an unsigned LEB128 varint at `at`; returns the next offset. */
export function writeVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  let i = at;
  while (v >= 0x80) {
    out[i++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[i++] = v;
  return i;
}

/** Reads the unsigned LEB128 varint at `at`: its value and the offset after it. */
export function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 1;
  let i = at;
  let byte: number;
  do {
    byte = bytes[i++]!;
    value += (byte & 0x7f) * shift;
    shift *= 128;
  } while (byte >= 0x80);
  return [value, i];
}
