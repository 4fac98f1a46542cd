/** Reading loosely typed aspect JSON: what the diffs need of a stored value, without trusting its shape. */

export type Json = Readonly<Record<string, unknown>>;

export function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function records(value: unknown): readonly Json[] {
  return Array.isArray(value) ? value.map(record).filter((r): r is Json => r !== undefined) : [];
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function texts(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The id of a urn: what follows `urn:li:<type>:` (the ecosystem's Urn.getId), or the string itself. */
export function urnId(urn: string): string {
  const match = /^urn:li:[^:]+:(.*)$/s.exec(urn);
  return match?.[1] ?? urn;
}

/** Strings in Java's String.compareTo order (UTF-16 code units), as the ecosystem sorts urns and paths. */
export function compareJava(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A JSON value in canonical form (keys sorted), for deep equality of aspect parts. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => compareJava(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The attribution's sourceDetail as JSON text (`{}` without one), as the ecosystem's events carry it. */
export function sourceDetails(association: Json | undefined): string {
  const detail = record(record(association?.['attribution'])?.['sourceDetail']);
  return detail === undefined ? '{}' : JSON.stringify(detail);
}
