import { ValidationError } from '@catalog/model';

/**
 * Reads a Rest.li array query parameter: the 2.0 form `List(a,b)` (values may be URL-encoded, and
 * may contain parenthesized commas, as URNs do) or the 1.0 form of repeated parameters.
 */
export function readListParam(raw: unknown, name: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string') throw new ValidationError(`Query parameter ${name} is malformed`);
    const trimmed = value.trim();
    if (trimmed.startsWith('List(')) {
      if (!trimmed.endsWith(')')) throw new ValidationError(`Query parameter ${name} has an unclosed List(`);
      out.push(...splitTopLevel(trimmed.slice(5, -1), name));
    } else if (trimmed !== '') {
      out.push(decode(trimmed, name));
    }
  }
  return out;
}

function splitTopLevel(body: string, name: string): string[] {
  if (body === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) throw new ValidationError(`Query parameter ${name} has unbalanced parentheses`);
  }
  if (depth !== 0) throw new ValidationError(`Query parameter ${name} has unbalanced parentheses`);
  parts.push(body.slice(start));
  return parts.map((p) => decode(p, name));
}

function decode(value: string, name: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ValidationError(`Query parameter ${name} is not valid URL encoding`);
  }
}
