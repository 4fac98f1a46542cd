import type { PrimitiveValue } from './types.js';

/**
 * Renders values in messages as the ecosystem's do (Java toString of Pegasus data): a value is
 * `{string=abc}` or `{double=30.0}`, a list `[a, b]`. Clients match on these texts (for example
 * "should be one of ["), so they follow the ecosystem's words and punctuation.
 */
export function formatValue(value: PrimitiveValue | unknown): string {
  if (isStringValue(value)) return `{string=${value.string}}`;
  if (isDoubleValue(value)) return `{double=${javaDouble(value.double)}}`;
  return String(JSON.stringify(value));
}

export function formatList(items: readonly unknown[], each: (item: unknown) => string = String): string {
  return `[${items.map(each).join(', ')}]`;
}

export function formatValues(values: readonly unknown[]): string {
  return formatList(values, formatValue);
}

export function formatAssignment(assignment: {
  readonly propertyUrn: string;
  readonly values: readonly unknown[];
}): string {
  return `{propertyUrn=${assignment.propertyUrn}, values=${formatValues(assignment.values)}}`;
}

/** Java's Double.toString: `30.0`, `0.5`, `1.0E21`, `1.0E-4`. */
export function javaDouble(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(n);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa = '', exponent = '0'] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

export function isStringValue(value: unknown): value is { readonly string: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)['string'] === 'string'
  );
}

export function isDoubleValue(value: unknown): value is { readonly double: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)['double'] === 'number'
  );
}

/** The same value: the same union member with the same content (Pegasus union equality). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isStringValue(a)) return isStringValue(b) && a.string === b.string;
  if (isDoubleValue(a)) return isDoubleValue(b) && a.double === b.double;
  return false;
}

export function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
}
