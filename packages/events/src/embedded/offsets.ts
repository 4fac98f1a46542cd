/** Port offsets are decimal strings (Kafka's may pass 2^53); the embedded log's stay below it. */
export function parseOffset(offset: string): number {
  if (!/^\d+$/.test(offset)) throw new RangeError(`invalid offset "${offset}"`);
  const value = Number(offset);
  if (!Number.isSafeInteger(value)) throw new RangeError(`offset ${offset} is out of range`);
  return value;
}

export function formatOffset(offset: number): string {
  return String(offset);
}
