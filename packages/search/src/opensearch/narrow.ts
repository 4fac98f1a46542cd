/**
 * Narrowing of the client's loosely typed response bodies: every value read from OpenSearch goes
 * through these, so a surprise in a response is an error with its path, not an undefined downstream.
 */
export type JsonObject = Record<string, unknown>;

export class UnexpectedResponseError extends Error {
  constructor(what: string, value: unknown) {
    super(`unexpected OpenSearch response: ${what} (got ${preview(value)})`);
    this.name = 'UnexpectedResponseError';
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new UnexpectedResponseError(`${what} is not an object`, value);
  return value;
}

export function asArray(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new UnexpectedResponseError(`${what} is not an array`, value);
  return value;
}

export function asString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new UnexpectedResponseError(`${what} is not a string`, value);
  return value;
}

export function asNumber(value: unknown, what: string): number {
  if (typeof value !== 'number') throw new UnexpectedResponseError(`${what} is not a number`, value);
  return value;
}

export function optionalNumber(value: unknown, what: string): number | undefined {
  return value === undefined || value === null ? undefined : asNumber(value, what);
}

/** `hits.total` is `{value, relation}` (track_total_hits) or a bare number on old servers. */
export function totalHits(hits: JsonObject): number {
  const total = hits['total'];
  if (typeof total === 'number') return total;
  return asNumber(asObject(total, 'hits.total')['value'], 'hits.total.value');
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
